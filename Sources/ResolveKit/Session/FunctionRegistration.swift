/// The compatibility check and `PUT /v1/functions/bulk`, done once for all the sessions of a ``ResolveKitHost``:
/// the first session to set up does them, sessions setting up meanwhile wait for it, later ones skip them. A
/// failure is not remembered, so the next setup tries again.
actor FunctionRegistration {
    private var registered = false
    private var inFlight: Task<BackendFailure?, Never>?

    /// Runs `work` unless it already succeeded; waits for a run in progress instead of starting another.
    /// - Returns: the failure of the run this call waited for, or `nil` once registered.
    func ensure(_ work: @escaping @Sendable () async -> BackendFailure?) async -> BackendFailure? {
        if registered { return nil }
        if let inFlight { return await inFlight.value }
        // Not a child task: a session stopped mid-registration must not fail the others waiting on it.
        let task = Task { await work() }
        inFlight = task
        let failure = await task.value
        inFlight = nil
        if failure == nil { registered = true }
        return failure
    }
}
