import Synchronization

/// Races an operation against a deadline without waiting for an operation that ignores cancellation.
///
/// Structured concurrency would wait for a cancelled child to return; a tool function that never checks for
/// cancellation would then hold its result past the server's deadline. So the operation and the timer run as
/// two unstructured tasks, the first to finish resumes the caller exactly once, and the loser is cancelled.
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
        let box = Box()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result, Never>) in
                let work = Task {
                    let outcome: Swift.Result<Value, any Error>
                    do { outcome = .success(try await operation()) } catch { outcome = .failure(error) }
                    Self.resume(box, with: .finished(outcome))
                }
                let timer = Task { [clock] in
                    do {
                        try await clock.sleep(untilElapsed: deadline)
                        Self.resume(box, with: .timedOut)
                    } catch {
                        // Cancelled because the operation finished first.
                    }
                }
                let resumeNow = box.state.withLock { state -> Result? in
                    state.continuation = continuation
                    state.tasks = [work, timer]
                    return state.pending
                }
                if let resumeNow { Self.resume(box, with: resumeNow) }
            }
        } onCancel: {
            Self.resume(box, with: .cancelled)
        }
    }

    private final class Box: Sendable {
        let state = Mutex(State())
    }

    private struct State {
        var continuation: CheckedContinuation<Result, Never>?
        var tasks: [Task<Void, Never>] = []
        var pending: Result?
        var isResumed = false
    }

    private static func resume(_ box: Box, with result: Result) {
        let action = box.state.withLock { state -> (CheckedContinuation<Result, Never>, [Task<Void, Never>])? in
            guard !state.isResumed else { return nil }
            guard let continuation = state.continuation else {
                if state.pending == nil { state.pending = result }
                return nil
            }
            state.isResumed = true
            state.continuation = nil
            return (continuation, state.tasks)
        }
        guard let (continuation, tasks) = action else { return }
        for task in tasks { task.cancel() }
        continuation.resume(returning: result)
    }
}
