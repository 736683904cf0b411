/// Why talking to Redis failed.
///
/// Thrown for every failure: connecting, authenticating, a server's error reply, a timeout, a protocol violation,
/// a lost connection, an ownership conflict. Passwords never appear in ``message`` or ``description``: commands are
/// named by their name alone and URLs without their password.
public struct RedisError: Error, Sendable, CustomStringConvertible {
    /// The kind of failure. New codes may be added; switch with a `default`.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// A stable identifier such as `connect_refused`.
        public let rawValue: String
        /// Creates a code from its identifier.
        public init(_ rawValue: String) { self.rawValue = rawValue }
        /// The identifier.
        public var description: String { rawValue }

        /// The URL does not parse; ``message`` says which part is wrong.
        public static let invalidURL = Code("invalid_url")
        /// Nothing listens at the address (`ECONNREFUSED`, or a Unix socket path that does not exist).
        public static let connectRefused = Code("connect_refused")
        /// Connecting failed otherwise (unresolvable host, unreachable network); see ``errno``.
        public static let connectFailed = Code("connect_failed")
        /// The server refused the user or password (`WRONGPASS`, `NOAUTH`, `NOPERM` during the handshake).
        public static let authFailed = Code("auth_failed")
        /// The server answered a command with an error; ``serverPrefix`` holds its first word (`WRONGTYPE`, …).
        public static let serverError = Code("server_error")
        /// The connect or command timeout passed; see ``mayHaveExecuted``.
        public static let timeout = Code("timeout")
        /// The server's bytes broke RESP or answered with an unexpected shape; the connection was closed.
        public static let protocolViolation = Code("protocol_violation")
        /// The connection broke with the command sent or queued; see ``mayHaveExecuted``.
        public static let connectionLost = Code("connection_lost")
        /// The client was closed.
        public static let closed = Code("closed")
        /// The calling task was cancelled while it waited; see ``mayHaveExecuted``.
        public static let cancelled = Code("cancelled")
        /// A fenced write carried a token that is no longer the key's current one; see ``currentToken``.
        public static let fencedOut = Code("fenced_out")
        /// Another holder has the key's lease; see ``holder`` and ``remaining``.
        public static let leaseHeld = Code("lease_held")
        /// A lease renewal or release found the lease gone or held by someone else; see ``holder``.
        public static let leaseLost = Code("lease_lost")
    }

    /// The kind of failure.
    public var code: Code
    /// What happened and, where it helps, how to fix it.
    public var message: String
    /// For ``Code/serverError`` (and ``Code/authFailed``): the error reply's first word, e.g. `NOSCRIPT`.
    public var serverPrefix: String?
    /// For ``Code/timeout`` and ``Code/connectionLost``: whether the command was written (wholly or partly) before
    /// the failure, so the server may have run it. A command that may have executed is never retried by the
    /// client: the caller decides (a fenced write is safe to send again; an `INCR` is not).
    public var mayHaveExecuted: Bool?
    /// The `errno` of a failed system call.
    public var errno: Int32?
    /// For ``Code/fencedOut``: the key's fencing token now.
    public var currentToken: Int64?
    /// For ``Code/leaseHeld`` and ``Code/leaseLost``: who holds the lease now, if anyone.
    public var holder: String?
    /// For ``Code/leaseHeld``: how long the holder's lease still runs.
    public var remaining: Duration?
    /// What caused it, such as a ``RESPParseError``.
    public var underlying: (any Error & Sendable)?

    /// Creates an error.
    public init(
        _ code: Code, _ message: String, serverPrefix: String? = nil, mayHaveExecuted: Bool? = nil,
        errno: Int32? = nil, underlying: (any Error & Sendable)? = nil
    ) {
        self.code = code
        self.message = message
        self.serverPrefix = serverPrefix
        self.mayHaveExecuted = mayHaveExecuted
        self.errno = errno
        self.underlying = underlying
    }

    /// A server error reply to `command`, typed by its prefix.
    static func reply(_ message: String, to command: String) -> RedisError {
        let prefix = message.prefix { $0 != " " }
        return RedisError(
            .serverError, "Redis refused \(command): \(message)", serverPrefix: String(prefix))
    }

    /// `code: message` with the details that are set.
    public var description: String {
        var text = "\(code): \(message)"
        if let mayHaveExecuted, code == .timeout || code == .connectionLost || code == .cancelled {
            text += mayHaveExecuted ? " (the command may have executed)" : " (the command was not sent)"
        }
        if let errno { text += " (errno \(errno))" }
        if let underlying { text += " — \(underlying)" }
        return text
    }
}
