/// The compatibility check and `PUT /v1/functions/bulk`, done once for all the sessions of a ``ResolveKitHost``:
/// the first session to set up does them, sessions setting up meanwhile wait for it, later ones skip them. A
/// failure is not remembered, so the next setup tries again.
actor FunctionRegistration {
    private var registered = false
    private var inFlight: Task<SessionEngine.SetupFailure?, Never>?

    /// Runs `work` unless it already succeeded; waits for a run in progress instead of starting another.
    /// - Returns: the failure of the run this call waited for, or `nil` once registered.
    func ensure(_ work: @escaping @Sendable () async -> SessionEngine.SetupFailure?) async -> SessionEngine.SetupFailure? {
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

extension SessionEngine {
    /// Checks compatibility and registers the functions: on every setup for a runtime of its own, once per host.
    func registerOnce() async throws(SetupFailure) {
        guard let registration else {
            try await checkCompatibility()
            try await registerFunctions()
            return
        }
        let failure = await registration.ensure { [self] in
            do throws(SetupFailure) {
                try await checkCompatibility()
                try await registerFunctions()
                return nil
            } catch {
                return error
            }
        }
        if let failure { throw failure }
    }
}
