import Synchronization

/// Lets one prompt use the terminal at a time; later batches wait their turn in order. Waiting is cancellable.
final class PromptGate: Sendable {
    private struct State {
        var busy = false
        var nextID = 0
        var waiters: [(id: Int, continuation: CheckedContinuation<Bool, Never>)] = []
    }

    private let state = Mutex(State())

    /// Waits until the terminal is free and takes it; `false` when the task was cancelled first (not taken then).
    func enter() async -> Bool {
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                let granted = state.withLock { state -> Bool? in
                    if Task.isCancelled { return false }
                    guard state.busy else {
                        state.busy = true
                        return true
                    }
                    state.waiters.append((id, continuation))
                    return nil
                }
                if let granted { continuation.resume(returning: granted) }
            }
        } onCancel: {
            let waiter = state.withLock { state -> CheckedContinuation<Bool, Never>? in
                guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
                return state.waiters.remove(at: index).continuation
            }
            waiter?.resume(returning: false)
        }
    }

    /// Hands the terminal to the next waiter, or frees it.
    func leave() {
        let next = state.withLock { state -> CheckedContinuation<Bool, Never>? in
            guard !state.waiters.isEmpty else {
                state.busy = false
                return nil
            }
            return state.waiters.removeFirst().continuation
        }
        next?.resume(returning: true)
    }
}
