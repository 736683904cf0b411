/// Why an HTTP exchange failed.
///
/// Transport failures (no connection, TLS, deadline, cancellation) are always thrown. A non-2xx status is *not* an
/// error of ``HTTPClient/execute(_:)``, which returns any response; ``HTTPClient/send(_:maxBodyBytes:)`` and
/// ``HTTPResponse/checkStatus(maxBodyBytes:)`` turn it into ``Code/httpStatus`` carrying the status and body.
public struct HTTPError: Error, Sendable, CustomStringConvertible {
    /// The kind of failure. New codes may be added; switch with a `default`.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// A stable identifier such as `connect_failed`.
        public let rawValue: String
        /// Creates a code from its identifier.
        public init(_ rawValue: String) { self.rawValue = rawValue }
        /// The identifier.
        public var description: String { rawValue }

        /// The URL or request is malformed or uses a scheme libcurl does not speak.
        public static let invalidRequest = Code("invalid_request")
        /// The host could not be resolved or connected to (refused, unreachable).
        public static let connectFailed = Code("connect_failed")
        /// The connect timeout or the total deadline passed.
        public static let timedOut = Code("timed_out")
        /// The awaiting task was cancelled or the response body was dropped.
        public static let cancelled = Code("cancelled")
        /// The TLS handshake failed for a reason none of the codes below names.
        public static let tlsFailed = Code("tls_failed")
        /// The server and this client have no TLS version in common (``NetworkSettings/minimumTLSVersion`` above
        /// what the server speaks, or a server that speaks only versions older than TLS 1.2).
        public static let tlsVersionMismatch = Code("tls_version_mismatch")
        /// The server's certificate is not signed by a certificate authority this client trusts (self-signed, or a
        /// private CA missing from ``NetworkSettings/trust``).
        public static let untrustedCertificate = Code("untrusted_certificate")
        /// The server's certificate is not valid for the host name in the URL.
        public static let hostnameMismatch = Code("hostname_mismatch")
        /// The server's certificate has expired.
        public static let certificateExpired = Code("certificate_expired")
        /// The server's certificate is not valid yet (or this machine's clock is behind).
        public static let certificateNotYetValid = Code("certificate_not_yet_valid")
        /// The server's public key matches none of ``NetworkSettings/pinnedPublicKeys``.
        public static let pinMismatch = Code("pin_mismatch")
        /// The server wants a client certificate (mutual TLS) and none was sent.
        public static let clientCertificateRequired = Code("client_certificate_required")
        /// The server refused the client certificate that was sent.
        public static let clientCertificateRejected = Code("client_certificate_rejected")
        /// The client certificate or key could not be used: unreadable, not PEM, a wrong passphrase, or a key that
        /// does not belong to the certificate.
        public static let clientIdentityUnusable = Code("client_identity_unusable")
        /// The CA file or folder of ``NetworkSettings/trust`` could not be read.
        public static let trustStoreUnusable = Code("trust_store_unusable")
        /// The proxy could not be reached, or refused to open a tunnel to the server.
        public static let proxyRefused = Code("proxy_refused")
        /// The proxy wants credentials (HTTP 407), and none or wrong ones were sent.
        public static let proxyAuthenticationRequired = Code("proxy_authentication_required")
        /// Fewer bytes than ``NetworkSettings/lowSpeedLimit`` allows arrived for too long.
        public static let tooSlow = Code("too_slow")
        /// A header from ``NetworkSettings/headers`` or its provider would replace one the request carries, or
        /// names a protected field; nothing was sent.
        public static let headerNotAllowed = Code("header_not_allowed")
        /// ``NetworkSettings`` cannot work as given (a malformed pin or proxy URL, a CA folder with `:`…).
        public static let invalidSettings = Code("invalid_settings")
        /// The body is larger than the caller allowed.
        public static let bodyTooLarge = Code("body_too_large")
        /// The server answered with a status outside 200–299; see ``status`` and ``body``.
        public static let httpStatus = Code("http_status")
        /// The server's answer broke HTTP (bad framing, HTTP/2 stream error, too many redirects).
        public static let protocolError = Code("protocol_error")
        /// The connection dropped before the response was complete.
        public static let connectionLost = Code("connection_lost")
        /// The client was shut down.
        public static let shutdown = Code("shutdown")
        /// Any other libcurl failure; see ``curlCode`` and ``curlMessage``.
        public static let transportFailed = Code("transport_failed")
    }

    /// The kind of failure.
    public var code: Code
    /// What happened and, where it helps, how to fix it.
    public var message: String
    /// libcurl's `CURLcode`, when libcurl reported the failure.
    public var curlCode: Int?
    /// libcurl's detailed error text, when it gave one.
    public var curlMessage: String?
    /// The HTTP status, for ``Code/httpStatus``.
    public var status: Int?
    /// The response body (possibly cut at the caller's limit), for ``Code/httpStatus``.
    public var body: [UInt8]?
    /// OpenSSL's verification result for the server's certificate (`CURLINFO_SSL_VERIFYRESULT`, an `X509_V_ERR_*`
    /// value such as 10 for an expired certificate), when verification failed.
    public var tlsVerifyResult: Int?
    /// The status a proxy answered `CONNECT` with (`CURLINFO_HTTP_CONNECTCODE`), when a tunnel failed.
    public var proxyStatus: Int?

    /// Creates an error.
    public init(
        code: Code, message: String, curlCode: Int? = nil, curlMessage: String? = nil, status: Int? = nil,
        body: [UInt8]? = nil, tlsVerifyResult: Int? = nil, proxyStatus: Int? = nil
    ) {
        self.code = code
        self.message = message
        self.curlCode = curlCode
        self.curlMessage = curlMessage
        self.status = status
        self.body = body
        self.tlsVerifyResult = tlsVerifyResult
        self.proxyStatus = proxyStatus
    }

    /// An ``Code/httpStatus`` error for a non-2xx answer, carrying its status and body.
    public static func httpStatus(_ status: Int, body: [UInt8]) -> HTTPError {
        HTTPError(code: .httpStatus, message: "The server answered HTTP \(status)", status: status, body: body)
    }

    /// Whether no retry can fix this failure, because the request as configured cannot work: a malformed URL, a host
    /// name that does not resolve (or a proxy's), or a server that answered the TLS handshake in plain HTTP. A
    /// refused or dropped connection, a deadline, a certificate problem or an HTTP status may go away, and are not.
    public var isPermanent: Bool {
        switch code {
        case .invalidRequest: true
        case .connectFailed: curlCode == 6 || curlCode == 5
        case .tlsFailed: curlCode == 35 && Self.isPlainHTTPAnswer(curlMessage)
        default: false
        }
    }

    /// The body as UTF-8 text (invalid bytes replaced), when there is one.
    public var bodyText: String? { body.map { String(decoding: $0, as: UTF8.self) } }

    /// The code, the message, and the curl or HTTP details.
    public var description: String {
        var text = "\(code): \(message)"
        // A message that quotes curl's own words already says them once.
        let curlWords = curlMessage.flatMap { message.contains($0) ? nil : ": \($0)" } ?? ""
        if let curlCode { text += " (curl \(curlCode)\(curlWords))" }
        if let bodyText, !bodyText.isEmpty { text += " — body: \(bodyText.prefix(512))" }
        return text
    }

    static let cancelledError = HTTPError(code: .cancelled, message: "The request was cancelled")
    static let stalledError = HTTPError(
        code: .timedOut, message: "Nothing arrived within the event stream's idle timeout; the connection was shut")
    static let shutdownError = HTTPError(
        code: .shutdown, message: "The HTTP client was shut down; create a new client for further requests")
}
