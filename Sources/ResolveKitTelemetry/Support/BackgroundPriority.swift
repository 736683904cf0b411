import Synchronization

/// Runs `body` in a task of background priority and returns when it ends; cancelling the caller cancels it.
///
/// On Linux the task runs on a thread of the pool that Dispatch keeps for that priority, at `nice` 10, so the
/// kernel gives it a core only after the process's other work. It is waited for through a continuation: awaiting
/// the task, or making it a child, would raise it to the caller's priority.
func runAtBackgroundPriority(_ body: @escaping @Sendable () async -> Void) async {
    let state = Mutex<(task: Task<Void, Never>?, isCancelled: Bool)>((nil, false))
    await withTaskCancellationHandler {
        await withCheckedContinuation { (ended: CheckedContinuation<Void, Never>) in
            let task = Task.detached(priority: .background) {
                await body()
                ended.resume()
            }
            let isCancelled = state.withLock { state in
                state.task = task
                return state.isCancelled
            }
            if isCancelled { task.cancel() }
        }
    } onCancel: {
        state.withLock { state in
            state.isCancelled = true
            return state.task
        }?.cancel()
    }
}
