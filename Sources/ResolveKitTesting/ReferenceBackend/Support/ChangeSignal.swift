import Synchronization

/// Wakes waiters when something changed; waiters re-check their own condition. A change may name its session, and
/// then wakes only that session's waiters (and those of no session), so an event in one of a thousand sessions
/// neither wakes nor scans a thousand streams.
///
/// Each session has its own generation (its changes plus those that named no session); ``wait(after:session:until:)``
/// returns at once when that generation already moved past the one the caller read with ``generation(of:)``, so a
/// change between reading state and starting to wait is never missed, and another session's change never wakes the
/// caller. A waiter is resumed straight from ``notify(session:)``: a stream writes an event one task hop after it was
/// appended. Waiting is cancellable.
final class ChangeSignal: Sendable {
    private struct Waiter {
        var session: String?
        var continuation: CheckedContinuation<Bool, Never>

        func resume(changed: Bool) {
            continuation.resume(returning: changed)
        }
    }

    private struct State {
        /// Every change: the generation of a waiter on no session.
        var changes = 0
        /// Changes that named no session: they count for every session.
        var everySession = 0
        var sessionChanges: [String: Int] = [:]
        var nextWaiter = 0
        var waiters: [Int: Waiter] = [:]
        var waitersBySession: [String: Set<Int>] = [:]
        var waitersOnAny: Set<Int> = []

        func generation(of session: String?) -> Int {
            guard let session else { return changes }
            return everySession + sessionChanges[session, default: 0]
        }

        mutating func take(_ id: Int) -> Waiter? {
            guard let waiter = waiters.removeValue(forKey: id) else { return nil }
            if let session = waiter.session {
                waitersBySession[session]?.remove(id)
                if waitersBySession[session]?.isEmpty == true { waitersBySession[session] = nil }
            } else {
                waitersOnAny.remove(id)
            }
            return waiter
        }
    }

    private let state = Mutex(State())

    /// The generation of any change; pass it to ``wait(after:session:)`` without a session.
    var generation: Int { generation(of: nil) }

    /// The generation `session` sees (any change when `nil`); pass it to ``wait(after:session:)``.
    func generation(of session: String?) -> Int { state.withLock { $0.generation(of: session) } }

    /// Marks a change and wakes the waiters of `session` and those waiting on no session; `nil` wakes everyone.
    func notify(session: String? = nil) {
        let woken = state.withLock { state -> [Waiter] in
            state.changes += 1
            let ids: [Int]
            if let session {
                state.sessionChanges[session, default: 0] += 1
                ids = Array(state.waitersBySession[session] ?? []) + state.waitersOnAny
            } else {
                state.everySession += 1
                ids = Array(state.waiters.keys)
            }
            return ids.compactMap { state.take($0) }
        }
        for waiter in woken { waiter.resume(changed: true) }
    }

    /// Returns `true` once `session`'s generation (any change's when `nil`) is past `seen`; `false` when `deadline`
    /// passed first (or had passed), or the task was cancelled. A loop that waits again and again shares one
    /// deadline's sleeping task across its waits; without a deadline the wait ends only by a change or cancellation.
    @discardableResult
    func wait(after seen: Int, session: String? = nil, until deadline: WaitDeadline? = nil) async -> Bool {
        let id = state.withLock { state in
            state.nextWaiter += 1
            return state.nextWaiter
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                let waiting = state.withLock { state in
                    if state.generation(of: session) != seen || Task.isCancelled { return false }
                    state.waiters[id] = Waiter(session: session, continuation: continuation)
                    if let session {
                        state.waitersBySession[session, default: []].insert(id)
                    } else {
                        state.waitersOnAny.insert(id)
                    }
                    return true
                }
                guard waiting else { return continuation.resume(returning: !Task.isCancelled) }
                deadline?.whenPassed { [weak self] in self?.state.withLock { $0.take(id) }?.resume(changed: false) }
            }
        } onCancel: {
            state.withLock { $0.take(id) }?.resume(changed: false)
        }
    }
}

/// A closure returning the time left until `duration` from now on `clock` (opens the existential clock).
func countdown<C: Clock<Duration>>(_ clock: C, from duration: Duration) -> @Sendable () -> Duration {
    let deadline = clock.now.advanced(by: duration)
    return { clock.now.duration(to: deadline) }
}
