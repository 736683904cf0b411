/// One OTLP/HTTP export: a `POST` of an encoded request to a signal's endpoint.
public struct OTLPRequest: Sendable {
    /// The endpoint, e.g. `http://127.0.0.1:4318/v1/traces`.
    public var url: String
    /// Header fields: `Content-Type`, `User-Agent` and the configured `OTEL_EXPORTER_OTLP_HEADERS`. Their values
    /// may be credentials: a transport never logs them or puts them in an error.
    public var headers: [(name: String, value: String)]
    /// The body.
    public var body: [UInt8]
    /// The deadline for the whole exchange (`OTEL_EXPORTER_OTLP_TIMEOUT`).
    public var timeout: Duration

    /// Creates a request.
    public init(url: String, headers: [(name: String, value: String)], body: [UInt8], timeout: Duration) {
        self.url = url
        self.headers = headers
        self.body = body
        self.timeout = timeout
    }
}

/// An OTLP/HTTP endpoint's answer.
public struct OTLPResponse: Sendable {
    /// The HTTP status.
    public var status: Int
    /// The `Retry-After` header as sent, when there was one.
    public var retryAfter: String?
    /// The body, cut at a few KiB: only read to report a failure.
    public var body: [UInt8]

    /// Creates a response.
    public init(status: Int, retryAfter: String? = nil, body: [UInt8] = []) {
        self.status = status
        self.retryAfter = retryAfter
        self.body = body
    }
}

/// How OTLP exports travel: ``PlainHTTPTransport`` over a socket of its own (`http://` only, no libcurl), or the
/// libcurl client of `ResolveKitTelemetryHTTP` (`http://` and `https://`).
public protocol OTLPTransport: Sendable {
    /// Sends `request` and returns the endpoint's answer; any HTTP status is a result.
    /// - Throws: ``TelemetryError`` for transport failures: the endpoint unreachable, the timeout passed, a broken
    ///   answer, the transport shut down.
    func send(_ request: OTLPRequest) async throws(TelemetryError) -> OTLPResponse
    /// Closes what the transport holds; later sends fail with ``TelemetryError/Code/shutdown``.
    func shutdown() async
}

extension OTLPRequest: CustomStringConvertible, CustomDebugStringConvertible {
    /// `POST http://…/v1/traces (1234 bytes, headers: Content-Type, api-key)`: header names only, since their
    /// values may be credentials.
    public var description: String {
        let names = headers.map(\.name).joined(separator: ", ")
        return "POST \(EndpointURL.redacted(url)) (\(body.count) bytes, headers: \(names))"
    }

    /// The same as ``description``.
    public var debugDescription: String { description }
}
