/// Why an ``EventStream`` stopped, or why one of its connections failed.
///
/// Only terminal outcomes reach the caller (as ``EventStream/State/failed(_:)`` and
/// ``EventStream/Termination/failed(_:)``): an HTTP status that retrying cannot fix (401, 403, 404, 410 and other
/// 4xx except 400, 408 and 429), or exhausted reconnect attempts. Everything else is retried with backoff.
public struct EventStreamError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kind of failure. New codes may be added; switch with a `default`.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// A stable identifier such as `http_status`.
        public let rawValue: String
        /// Creates a code from its identifier.
        public init(_ rawValue: String) { self.rawValue = rawValue }
        /// The identifier.
        public var description: String { rawValue }

        /// The server answered with a status other than 2xx; see ``status`` and ``body``.
        public static let httpStatus = Code("http_status")
        /// The transport could not connect, or the connection broke; see ``underlying``.
        public static let transport = Code("transport")
        /// No byte (not even a keep-alive comment) arrived within the idle timeout.
        public static let idleTimeout = Code("idle_timeout")
        /// The server ended the stream before it became healthy (no event, open too briefly).
        public static let endedEarly = Code("ended_early")
        /// The reconnect budget is spent; ``underlying`` is the last failure.
        public static let attemptsExhausted = Code("attempts_exhausted")
    }

    /// The kind of failure.
    public var code: Code
    /// What happened and what to do about it.
    public var message: String
    /// The HTTP status, for ``Code/httpStatus`` (and an exhausted budget whose last failure was a status).
    public var status: Int?
    /// The response body the transport read for a non-2xx status (bounded by the transport).
    public var body: [UInt8]
    /// The cause: the transport's error, or the last failure for ``Code/attemptsExhausted``.
    public var underlying: (any Error)?

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - code: The kind of failure.
    ///   - message: What happened.
    ///   - status: The HTTP status, if any.
    ///   - body: The response body, if any.
    ///   - underlying: The cause, if any.
    public init(code: Code, message: String, status: Int? = nil, body: [UInt8] = [], underlying: (any Error)? = nil) {
        self.code = code
        self.message = message
        self.status = status
        self.body = body
        self.underlying = underlying
    }

    /// The server answered `status` with `body`.
    package static func httpStatus(_ status: Int, body: [UInt8]) -> Self {
        Self(
            code: .httpStatus, message: "The event stream request was answered with HTTP \(status)", status: status,
            body: body)
    }

    /// The text of ``message`` and, when present, the status and the cause.
    public var description: String {
        var text = "\(code): \(message)"
        if let underlying { text += " (\(underlying))" }
        return text
    }

    /// Equal when code, message, status and body are; ``underlying`` is not compared.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.code == rhs.code && lhs.message == rhs.message && lhs.status == rhs.status && lhs.body == rhs.body
    }
}
