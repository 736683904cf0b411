/// How much time a function that needs approval must leave a person: the backend's timeout for a call includes
/// the wait for its approval, so a short timeout declines the call while the person is still reading it.
package enum ApprovalTime {
    /// The shortest timeout, in seconds, that leaves a person time to notice the prompt, read the call and its
    /// arguments and decide (the runtime also keeps a moment to run the function and post the result).
    package static let minimumSeconds = 60
    /// The timeout a function that needs approval is registered with when its annotation gives none: two minutes
    /// for a person, where the backend's own default (30 seconds) would leave too little.
    package static let defaultSeconds = 120

    /// The timeout a function is registered with: its annotation's, else ``defaultSeconds`` when it needs
    /// approval, else `nil` (the backend's default).
    static func registered(timeout: Int?, requiresApproval: Bool) -> Int? {
        timeout ?? (requiresApproval ? defaultSeconds : nil)
    }

    /// The warning for a function that needs approval whose `timeout:` is too short for a person, or `nil`.
    static func warning(timeout: Int?, requiresApproval: Bool, at location: SourceLocation?) -> Diagnostic? {
        guard requiresApproval, let timeout, let location, (1..<minimumSeconds).contains(timeout) else { return nil }
        return .warning(
            "timeout \(timeout) is too short for a function that needs approval: the backend's timeout includes the "
                + "wait for a person's decision, so the prompt would show less than \(timeout) seconds; use "
                + "\(minimumSeconds) or more",
            at: location)
    }
}
