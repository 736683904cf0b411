/// Where the runtime's session and event stream are (the reference SDK's lifecycle).
///
/// `idle → registering → connecting → active`; after a drop `reconnecting → reconnected → active`; `failed` when
/// the connect budget ran out or an unrecoverable error occurred (at once, before any session opened, when no retry
/// can fix it: an unknown host, TLS against a plain-HTTP server); `blocked` when the runtime must not connect (no
/// API key, a rejected key, an SDK the backend does not support, chat disabled, a state folder in use). Both carry
/// the ``ResolveKitError``, also kept in ``ResolveKitRuntime/lastError``.
///
/// Frozen on purpose: these are the reference SDK's states, and hosts switch over them exhaustively.
public enum ResolveKitConnectionState: Sendable, Hashable, CustomStringConvertible {
    /// Created; `start()` not called yet, or stopped.
    case idle
    /// Checking compatibility and registering functions.
    case registering
    /// Creating the session and opening the event stream.
    case connecting
    /// The event stream is open.
    case active
    /// Connecting failed or the stream dropped; the next attempt comes after `delay`. `cause` is why the last
    /// attempt failed, when the runtime knows it (a setup request's failure), so it shows from the first attempt on.
    case reconnecting(attempt: Int, delay: Duration, cause: ResolveKitError? = nil)
    /// A reconnect succeeded; `active` follows.
    case reconnected
    /// Gave up, for this reason.
    case failed(ResolveKitError)
    /// Must not connect, for this reason.
    case blocked(ResolveKitError)

    /// A short lower-case name with details.
    public var description: String {
        switch self {
        case .idle: "idle"
        case .registering: "registering"
        case .connecting: "connecting"
        case .active: "active"
        case .reconnecting(let attempt, let delay, let cause):
            "reconnecting (attempt \(attempt), in \(delay.inWords))" + (cause.map { ": \($0.message)" } ?? "")
        case .reconnected: "reconnected"
        case .failed(let error): "failed: \(error)"
        case .blocked(let error): "blocked: \(error)"
        }
    }
}

extension ResolveKitError {
    /// Why a connection attempt failed, as a ``ResolveKitConnectionState/reconnecting(attempt:delay:cause:)`` shows
    /// it: ``Code/unreachable`` with the cause's words.
    init(connectFailure cause: any Error & Sendable) {
        self.init(.unreachable, "\(cause)", underlying: cause)
    }
}
