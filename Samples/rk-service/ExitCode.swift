/// The process exit codes: sysexits.h values, and 3 for an unreachable backend as in rk-chat.
enum ExitCode: Int32 {
    /// Stopped cleanly: a signal was drained, or stdin ended.
    case clean = 0
    /// `--check-policy` found at least one error in the policy (warnings alone exit `clean`).
    case policyHasErrors = 1
    /// The backend could not be reached: no connection within `--connect-attempts`, or the network refused (an
    /// untrusted certificate, a pin, a client certificate, the proxy's credentials); the cause is logged in words.
    /// rk-chat's code for the same.
    case unreachable = 3
    /// A usage error: bad flag, no API key, unreadable key or policy file, an error in the policy (`EX_USAGE`).
    case usage = 64
    /// The backend refused this host (a rejected key, an unsupported SDK, chat switched off) or ended the session's
    /// work for another reason than the network (`EX_UNAVAILABLE`).
    case unavailable = 69
    /// An internal failure (`EX_SOFTWARE`).
    case internalFailure = 70
    /// The state folder cannot be used: another process holds it (`state_locked`), or it cannot be read or written
    /// (`EX_CANTCREAT`). A local problem, not an unavailable backend.
    case stateUnavailable = 73
}
