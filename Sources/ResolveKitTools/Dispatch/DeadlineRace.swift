import Synchronization

/// Races an operation against a deadline without waiting for an operation that ignores cancellation.
///
/// Structured concurrency would wait for a cancelled child to return; a tool function that never checks for
/// cancellation would then hold its result past the server's deadline. So the operation and the timer run as
/// two unstructured tasks, the first to finish settles the race exactly once, and the loser is cancelled.
package struct DeadlineRace<Value: Sendable>: Sendable {
    /// How the race ended.
    package enum Result: Sendable {
        case finished(Swift.Result<Value, any Error>)
        case timedOut
        case cancelled
    }

    package let clock: ResolveKitClock

    /// A race on `clock`.
    package init(clock: ResolveKitClock) { self.clock = clock }

    /// Runs `operation` until it finishes, `deadline` (on the clock's elapsed time) passes, or the caller is cancelled.
    package func run(
        until deadline: Duration,
        _ operation: @escaping @Sendable () async throws -> Value
    ) async -> Result {
        await start(until: deadline, operation).result()
    }

    /// Starts `operation` and its timer now, before this returns: a caller on an actor starts the work without
    /// waiting for a task of its own to be scheduled first. With `immediately`, the operation's task runs on the
    /// caller's thread until its first suspension (or its end) before this returns; an operation that ends there
    /// needs no timer. `onSettle` is called once, on the thread that settles the race (the operation's, the timer's
    /// or the canceller's), before any waiter resumes: a caller learns the end without a task waiting for it.
    package func start(
        until deadline: Duration,
        immediately: Bool = false,
        onSettle: (@Sendable (Result) -> Void)? = nil,
        _ operation: @escaping @Sendable () async throws -> Value
    ) -> Running {
        let running = Running(onSettle: onSettle)
        let body: @Sendable () async -> Void = {
            let outcome: Swift.Result<Value, any Error>
            do { outcome = .success(try await operation()) } catch { outcome = .failure(error) }
            running.settle(.finished(outcome))
        }
        let work = immediately ? Task.immediate(operation: body) : Task(operation: body)
        if running.isSettled { return running }
        let timer = Task { [clock] in
            do {
                try await clock.sleep(untilElapsed: deadline)
                running.settle(.timedOut)
            } catch {
                // Cancelled because the race was settled first.
            }
        }
        running.keep([work, timer])
        return running
    }

    /// A race under way: ``result()`` waits for its end; ``cancel()`` settles it as cancelled.
    package final class Running: Sendable {
        private struct State {
            var result: Result?
            var waiter: CheckedContinuation<Result, Never>?
            var tasks: [Task<Void, Never>] = []
        }

        private let state = Mutex(State())
        private let onSettle: (@Sendable (Result) -> Void)?

        init(onSettle: (@Sendable (Result) -> Void)? = nil) {
            self.onSettle = onSettle
        }

        /// How the race ended; `.cancelled` when the waiting task is cancelled first (the race is cancelled too).
        package func result() async -> Result {
            await withTaskCancellationHandler {
                await withCheckedContinuation { (continuation: CheckedContinuation<Result, Never>) in
                    let settled = state.withLock { state -> Result? in
                        if state.result == nil { state.waiter = continuation }
                        return state.result
                    }
                    if let settled { continuation.resume(returning: settled) }
                }
            } onCancel: {
                settle(.cancelled)
            }
        }

        /// Ends the race as cancelled, unless it already ended: both tasks are cancelled.
        package func cancel() { settle(.cancelled) }

        /// Whether the race has ended.
        var isSettled: Bool { state.withLock { $0.result != nil } }

        fileprivate func keep(_ tasks: [Task<Void, Never>]) {
            let isSettled = state.withLock { state in
                if state.result == nil { state.tasks = tasks }
                return state.result != nil
            }
            if isSettled { for task in tasks { task.cancel() } }
        }

        /// The first call wins: it cancels both tasks and resumes the waiter, if any.
        fileprivate func settle(_ result: Result) {
            let settled = state.withLock { state -> (CheckedContinuation<Result, Never>?, [Task<Void, Never>])? in
                guard state.result == nil else { return nil }
                state.result = result
                defer {
                    state.waiter = nil
                    state.tasks = []
                }
                return (state.waiter, state.tasks)
            }
            guard let (waiter, tasks) = settled else { return }
            for task in tasks { task.cancel() }
            onSettle?(result)
            waiter?.resume(returning: result)
        }
    }
}
