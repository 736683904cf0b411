import Synchronization

/// Wakes waiters when something changed; waiters re-check their own condition. A change may name its session, and
/// then wakes only that session's waiters (and those of no session), so an event in one of a thousand sessions does
/// not wake a thousand streams.
///
/// `wait(after:)` returns at once when the generation already moved past the one the caller saw, so a change that
/// happens between reading state and starting to wait is never missed (the price is an occasional spurious wake-up
/// for another session's change). Waiting is cancellable.
final class ChangeSignal: Sendable {
    private struct Waiter {
        var session: String?
        var continuation: CheckedContinuation<Void, Never>
    }

    private struct State {
        var generation = 0
        var nextWaiter = 0
        var waiters: [Int: Waiter] = [:]
        var waitersBySession: [String: Set<Int>] = [:]

        mutating func take(_ id: Int) -> CheckedContinuation<Void, Never>? {
            guard let waiter = waiters.removeValue(forKey: id) else { return nil }
            if let session = waiter.session {
                waitersBySession[session]?.remove(id)
                if waitersBySession[session]?.isEmpty == true { waitersBySession[session] = nil }
            }
            return waiter.continuation
        }
    }

    private let state = Mutex(State())

    /// The current generation; pass it to ``wait(after:)``.
    var generation: Int { state.withLock { $0.generation } }

    /// Marks a change and wakes the waiters of `session` and those waiting on no session; `nil` wakes everyone.
    func notify(session: String? = nil) {
        let woken = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.generation += 1
            let ids: [Int]
            if let session {
                ids = Array(state.waitersBySession[session] ?? []) + state.waiters.filter { $0.value.session == nil }.map(\.key)
            } else {
                ids = Array(state.waiters.keys)
            }
            return ids.compactMap { state.take($0) }
        }
        for waiter in woken { waiter.resume() }
    }

    /// Returns once the generation is past `seen` (for `session`'s changes, or any when `nil`), or the task is
    /// cancelled.
    func wait(after seen: Int, session: String? = nil) async {
        let id = state.withLock { state in
            state.nextWaiter += 1
            return state.nextWaiter
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let resumeNow = state.withLock { state in
                    if state.generation != seen || Task.isCancelled { return true }
                    state.waiters[id] = Waiter(session: session, continuation: continuation)
                    if let session { state.waitersBySession[session, default: []].insert(id) }
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.take(id) }?.resume()
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
