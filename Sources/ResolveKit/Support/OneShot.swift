import Synchronization

/// A value set once and awaited by any number of tasks: how an `ask` waits for its turn to end and for a session.
/// A waiting task that is cancelled gets `nil`; the value, once set, stays.
final class OneShot<Value: Sendable>: Sendable {
    private enum State {
        case waiting([Int: CheckedContinuation<Value?, Never>], nextID: Int)
        case fulfilled(Value)
    }

    private let state = Mutex(State.waiting([:], nextID: 0))

    /// Sets the value and wakes every waiter; later calls are ignored. Returns whether this call set it.
    @discardableResult
    func fulfill(_ value: Value) -> Bool {
        let waiters = state.withLock { state -> [CheckedContinuation<Value?, Never>]? in
            guard case .waiting(let waiters, _) = state else { return nil }
            state = .fulfilled(value)
            return Array(waiters.values)
        }
        guard let waiters else { return false }
        for waiter in waiters { waiter.resume(returning: value) }
        return true
    }

    /// The value, or `nil` when the waiting task is cancelled first.
    func value() async -> Value? {
        let id = state.withLock { state -> Int in
            guard case .waiting(let waiters, let nextID) = state else { return -1 }
            state = .waiting(waiters, nextID: nextID + 1)
            return nextID
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Value?, Never>) in
                let immediate = state.withLock { state -> Value?? in
                    switch state {
                    case .fulfilled(let value): return .some(value)
                    case .waiting(var waiters, let nextID):
                        if Task.isCancelled { return .some(nil) }
                        waiters[id] = continuation
                        state = .waiting(waiters, nextID: nextID)
                        return nil
                    }
                }
                if let immediate { continuation.resume(returning: immediate) }
            }
        } onCancel: {
            let waiter = state.withLock { state -> CheckedContinuation<Value?, Never>? in
                guard case .waiting(var waiters, let nextID) = state else { return nil }
                let waiter = waiters.removeValue(forKey: id)
                state = .waiting(waiters, nextID: nextID)
                return waiter
            }
            waiter?.resume(returning: nil)
        }
    }
}
