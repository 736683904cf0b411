import Synchronization

/// Wakes every waiter when something changed; waiters re-check their own condition.
///
/// `wait(after:)` returns at once when the generation already moved past the one the caller saw, so a change that
/// happens between reading state and starting to wait is never missed. Waiting is cancellable.
final class ChangeSignal: Sendable {
    private struct State {
        var generation = 0
        var nextWaiter = 0
        var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
    }

    private let state = Mutex(State())

    /// The current generation; pass it to ``wait(after:)``.
    var generation: Int { state.withLock { $0.generation } }

    /// Marks a change and wakes every waiter.
    func notify() {
        let waiters = state.withLock { state in
            state.generation += 1
            defer { state.waiters.removeAll() }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns once the generation is past `seen`, or the task is cancelled.
    func wait(after seen: Int) async {
        let id = state.withLock { state in
            state.nextWaiter += 1
            return state.nextWaiter
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let resumeNow = state.withLock { state in
                    if state.generation != seen || Task.isCancelled { return true }
                    state.waiters[id] = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: id) }?.resume()
        }
    }
}

/// Runs `operation` against a timer on `clock`; `nil` when the timer fired first (or the task was cancelled).
func withTimeout<Value: Sendable>(
    _ timeout: Duration, clock: any Clock<Duration>, _ operation: @escaping @Sendable () async -> Value
) async -> Value? {
    await withTaskGroup(of: Value?.self) { group in
        group.addTask { await operation() }
        group.addTask {
            try? await clock.sleep(for: timeout)
            return nil
        }
        let first = await group.next() ?? nil
        group.cancelAll()
        return first
    }
}
