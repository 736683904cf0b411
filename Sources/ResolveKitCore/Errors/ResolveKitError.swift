/// Why the runtime could not do what was asked: what `start()` throws, what ``ResolveKitRuntime/lastError`` holds,
/// what a blocked or failed connection state carries, and what `ask` and `sendMessage` fail with.
///
/// Outcomes that are part of a normal conversation are results, not errors: a declined tool call, a tool call that
/// failed, an agent that answered with an error event all arrive inside ``ResolveKitTurnResult``.
///
/// Switch on ``code`` (with a `default`: codes may be added). ``isRetryable`` says whether the same operation may
/// succeed later without a change on this side; ``underlying`` is the cause (``BackendError``, `HTTPError`,
/// `EventStreamError`, ``StateFolderLockError``…). When the cause is the network (a TLS certificate, a pin, a
/// proxy), ``underlying`` is the `HTTPError` itself, whose code names it, so a caller can switch on it:
///
/// ```swift
/// if let cause = error.underlying as? HTTPError, cause.code == .untrustedCertificate { … }
/// ```
///
/// The description never contains the API key, a capability token, a proxy password or a key passphrase.
public struct ResolveKitError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of failure. New codes may be added; switch with a `default`.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// A stable identifier such as `unreachable`.
        public let rawValue: String
        /// Creates a code from its identifier.
        public init(_ rawValue: String) { self.rawValue = rawValue }
        /// The identifier.
        public var description: String { rawValue }

        /// The API key provider returned nothing: configure a key.
        public static let missingAPIKey = Code("missing_api_key")
        /// No base URL: neither the configuration's `baseURL` nor `RESOLVEKIT_BASE_URL` is set.
        public static let missingBaseURL = Code("missing_base_url")
        /// The backend answered 401: the API key is wrong or revoked.
        public static let apiKeyRejected = Code("api_key_rejected")
        /// The backend does not support this SDK version.
        public static let unsupportedSDK = Code("unsupported_sdk")
        /// Chat is switched off for this app (403 `chat_unavailable` with a fresh token).
        public static let chatUnavailable = Code("chat_unavailable")
        /// No connection succeeded within the connect budget; ``underlying`` is the last cause.
        public static let unreachable = Code("unreachable")
        /// Another runtime (in this or another process) owns the state folder.
        public static let stateLocked = Code("state_locked")
        /// The state folder cannot be read or written.
        public static let stateStore = Code("state_store")
        /// Another process (a replica sharing the state store) owns this key's session; the message names it, so
        /// the request can be routed there.
        public static let keyOwnedElsewhere = Code("key_owned_elsewhere")
        /// Registering this host's functions would deactivate functions the backend lists that this host does not
        /// register (another host of the fleet registered them, or this version dropped them): registration is a full
        /// replace per app. The message names them; register them here too, or allow the replace
        /// (`replacesOtherFunctions`).
        public static let functionSetConflict = Code("function_set_conflict")
        /// The configuration cannot work: a refused function, a malformed base URL.
        public static let invalidConfiguration = Code("invalid_configuration")
        /// The session ended on the server (expired, closed, handed off) before the turn could finish.
        public static let sessionGone = Code("session_gone")
        /// The turn ended without an answer: the backend lost it (no terminal event, no progress).
        public static let turnLost = Code("turn_lost")
        /// The turn did not end within the time the caller allowed; it may still finish later.
        public static let turnTimedOut = Code("turn_timed_out")
        /// Too many turns are already waiting for this session.
        public static let turnQueueFull = Code("turn_queue_full")
        /// The message is empty or too long.
        public static let invalidMessage = Code("invalid_message")
        /// The backend refused or failed a request in a way retrying did not fix.
        public static let backend = Code("backend")
        /// The runtime is not running: call `start()` first, or it was stopped.
        public static let notStarted = Code("not_started")
        /// The operation was cancelled, or the runtime stopped while it waited.
        public static let cancelled = Code("cancelled")
        /// No call with this id is waiting for approval: it was decided already, withdrawn, or never existed.
        public static let approvalNotPending = Code("approval_not_pending")
        /// Arguments a person edited do not satisfy the function's schema.
        public static let invalidArguments = Code("invalid_arguments")
    }

    /// The kind of failure.
    public var code: Code
    /// What happened and, where it helps, what to do about it.
    public var message: String
    /// Whether trying the same operation again later may succeed without a change here.
    public var isRetryable: Bool
    /// The cause, when there is one.
    public var underlying: (any Error & Sendable)?
    /// What a layer above attaches to the error: the runtime keeps a turn's progress here (its `turnSoFar`), a
    /// type this module does not know.
    package var detail: (any Sendable)?

    /// Creates an error.
    /// - Parameters:
    ///   - code: The kind of failure.
    ///   - message: What happened.
    ///   - isRetryable: Whether the same operation may succeed later; by default, for the codes that are about
    ///     time or the network (`unreachable`, `turnLost`, `turnTimedOut`, `turnQueueFull`, `sessionGone`,
    ///     `stateLocked`).
    ///   - underlying: The cause.
    public init(_ code: Code, _ message: String, isRetryable: Bool? = nil, underlying: (any Error & Sendable)? = nil) {
        self.code = code
        self.message = message
        self.isRetryable = isRetryable ?? Self.retryableCodes.contains(code)
        self.underlying = (underlying as? any NetworkCauseCarrying)?.networkCause ?? underlying
    }

    private static let retryableCodes: Set<Code> = [
        .unreachable, .turnLost, .turnTimedOut, .turnQueueFull, .sessionGone, .stateLocked,
    ]

    /// `unreachable: No connection to http://… within 30 s (last cause: …)`.
    public var description: String { "\(code): \(message)" }

    /// Errors are equal when their code and message are; the underlying cause is not compared.
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.code == rhs.code && lhs.message == rhs.message }

    /// Hashes the code and message.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
        hasher.combine(message)
    }
}
