/// One OTLP export: a `POST` of an encoded request to a signal's endpoint, over HTTP or as a gRPC call.
public struct OTLPRequest: Sendable {
    /// The endpoint, e.g. `http://127.0.0.1:4318/v1/traces`, or for gRPC the method's URL
    /// (`http://127.0.0.1:4317/opentelemetry.proto.collector.trace.v1.TraceService/Export`).
    public var url: String
    /// Header fields: `Content-Type`, `User-Agent` and the configured `OTEL_EXPORTER_OTLP_HEADERS`. Their values
    /// may be credentials: a transport never logs them or puts them in an error.
    public var headers: [(name: String, value: String)]
    /// The body.
    public var body: [UInt8]
    /// The deadline for the whole exchange (`OTEL_EXPORTER_OTLP_TIMEOUT`).
    public var timeout: Duration
    /// Whether it is a gRPC call: sent over HTTP/2 (in clear text without asking, for `http://`), its outcome in
    /// the answer's ``OTLPResponse/grpcStatus``.
    public var isGRPC: Bool
    /// Whether someone waits for it (a flush, the last export at shutdown): a transport that works in the
    /// background then sends it at normal priority. `false` by default.
    public var isUrgent = false

    /// Creates a request.
    public init(
        url: String, headers: [(name: String, value: String)], body: [UInt8], timeout: Duration, isGRPC: Bool = false
    ) {
        self.url = url
        self.headers = headers
        self.body = body
        self.timeout = timeout
        self.isGRPC = isGRPC
    }
}

/// An OTLP endpoint's answer.
public struct OTLPResponse: Sendable {
    /// The HTTP status.
    public var status: Int
    /// The `Retry-After` header as sent, when there was one.
    public var retryAfter: String?
    /// The body, cut at a few KiB: only read to report a failure or a partial success (for gRPC, still framed).
    public var body: [UInt8]
    /// How a gRPC call ended (its `grpc-status` trailer); `nil` over plain HTTP, or when the answer had none.
    public var grpcStatus: GRPCStatus?

    /// Creates a response.
    public init(status: Int, retryAfter: String? = nil, body: [UInt8] = [], grpcStatus: GRPCStatus? = nil) {
        self.status = status
        self.retryAfter = retryAfter
        self.body = body
        self.grpcStatus = grpcStatus
    }
}

/// How OTLP exports travel: ``PlainHTTPTransport`` over a socket of its own (`http://` only, HTTP/1.1, no libcurl),
/// or the libcurl client of `ResolveKitTelemetryHTTP` (`http://` and `https://`, and gRPC over HTTP/2).
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
