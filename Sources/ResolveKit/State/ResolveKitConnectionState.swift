/// Where the runtime's session and event stream are (the reference SDK's lifecycle).
///
/// `idle → registering → connecting → active`; after a drop `reconnecting → reconnected → active`; `failed` when
/// retries are exhausted or an unrecoverable error occurred (see ``ResolveKitRuntime/lastError``); `blocked`
/// when the runtime must not connect (no API key, an SDK the backend does not support, chat disabled).
public enum ResolveKitConnectionState: Sendable, Hashable, CustomStringConvertible {
    /// Created; `start()` not called yet, or stopped.
    case idle
    /// Checking compatibility and registering functions.
    case registering
    /// Creating the session and opening the event stream.
    case connecting
    /// The event stream is open.
    case active
    /// The stream dropped; the next attempt comes after `delay`.
    case reconnecting(attempt: Int, delay: Duration)
    /// A reconnect succeeded; `active` follows.
    case reconnected
    /// Gave up; see `lastError`.
    case failed
    /// Must not connect, for the reason given.
    case blocked(reason: String)

    /// A short lower-case name with details.
    public var description: String {
        switch self {
        case .idle: "idle"
        case .registering: "registering"
        case .connecting: "connecting"
        case .active: "active"
        case .reconnecting(let attempt, let delay): "reconnecting (attempt \(attempt), in \(delay))"
        case .reconnected: "reconnected"
        case .failed: "failed"
        case .blocked(let reason): "blocked: \(reason)"
        }
    }
}
