public import ResolveKitHTTP

/// A failed call to the backend: transport trouble, an HTTP status with the server's error body, or a response
/// that does not have the protocol's shape. Never contains the API key or the capability token.
///
/// An answer the network in front of the server wrote (a proxy's 407, nginx's page for a refused client
/// certificate) is a ``Code/transport`` failure with its typed ``underlying`` cause, not an HTTP status.
public struct BackendError: Error, Sendable, CustomStringConvertible {
    /// The kind of failure. New codes may be added.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// A stable identifier.
        public let rawValue: String
        /// Creates a code.
        public init(_ rawValue: String) { self.rawValue = rawValue }
        /// The identifier.
        public var description: String { rawValue }

        /// The request did not get an HTTP answer (connect, TLS, deadline, reset).
        public static let transport = Code("transport")
        /// The server answered with a status that is not 2xx.
        public static let httpStatus = Code("http_status")
        /// The answer did not have the protocol's shape.
        public static let invalidResponse = Code("invalid_response")
        /// Registering would deactivate functions the backend lists that this host does not register (a fleet
        /// whose hosts register different sets); ``message`` names them.
        public static let functionSetConflict = Code("function_set_conflict")
    }

    /// The kind of failure.
    public var code: Code
    /// The HTTP status, for ``Code/httpStatus``.
    public var status: Int?
    /// The server's error body, for ``Code/httpStatus``.
    public var serverError: ServerErrorBody?
    /// The endpoint, e.g. `POST /v1/sessions`.
    public var endpoint: String
    /// What happened.
    public var message: String
    /// For ``Code/transport``, the HTTP client's error, whose code names the cause (an untrusted certificate, a
    /// pin mismatch, a proxy that wants credentials…).
    public var underlying: HTTPError?

    /// Creates an error.
    public init(
        code: Code, endpoint: String, message: String, status: Int? = nil, serverError: ServerErrorBody? = nil,
        underlying: HTTPError? = nil
    ) {
        self.code = code
        self.endpoint = endpoint
        self.message = message
        self.status = status
        self.serverError = serverError
        self.underlying = underlying
    }

    /// Whether trying the same request again later may work (transport errors no retry cannot fix, 5xx, 429, 400
    /// config errors).
    public var isTransient: Bool {
        guard code == .httpStatus, let status else { return code == .transport && !isPermanentTransportFailure }
        return status >= 500 || status == 429 || status == 408 || status == 400
    }

    /// Whether the request got no HTTP answer for a reason no retry can fix: a host name that does not resolve, a
    /// server that answers TLS in plain HTTP, a malformed URL (``HTTPError/isPermanent``).
    public var isPermanentTransportFailure: Bool { code == .transport && underlying?.isPermanent == true }

    /// `403 chat_unavailable`: an expired capability token, or chat switched off (§2.2).
    public var isChatUnavailable: Bool { status == 403 && serverError?.isChatUnavailable == true }

    /// `POST /v1/sessions: HTTP 410: Session expired`.
    public var description: String {
        if let status { return "\(endpoint): HTTP \(status): \(serverError?.description ?? message)" }
        return "\(endpoint): \(message)"
    }
}

extension BackendError: NetworkCauseCarrying {
    /// The HTTP client's error of a request that got no answer, or that the network in front of the server answered.
    package var networkCause: (any Error & Sendable)? { underlying }
}
