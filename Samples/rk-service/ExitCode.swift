/// The process exit codes (sysexits.h values).
enum ExitCode: Int32 {
    /// Stopped cleanly: a signal was drained, or stdin ended.
    case clean = 0
    /// `--check-policy` found at least one error in the policy (warnings alone exit `clean`).
    case policyHasErrors = 1
    /// A usage error: bad flag, no API key, unreadable key or policy file, an error in the policy (`EX_USAGE`).
    case usage = 64
    /// The backend is unavailable or refused this host (`EX_UNAVAILABLE`).
    case unavailable = 69
    /// An internal failure (`EX_SOFTWARE`).
    case internalFailure = 70
    /// The state folder cannot be used: another process holds it (`state_locked`), or it cannot be read or written
    /// (`EX_CANTCREAT`). A local problem, not an unavailable backend.
    case stateUnavailable = 73
}
