public import ResolveKitCore

/// Sends batches of spans to an OTLP/HTTP endpoint as JSON (`POST …/v1/traces`, `Content-Type: application/json`).
/// A batch is encoded on a thread of the exporter's own at the kernel's idle priority: a 512-span batch takes a
/// core for about half a millisecond, which on a busy machine it only gets when no tool call wants it.
///
/// 2xx is success; 429, 502, 503 and 504 are retried (after `Retry-After` when the endpoint sends it), as are
/// transport failures; any other status drops the batch. Failures are logged (without header values) through the
/// logger given, never thrown at a span's caller.
public struct OTLPSpanExporter: SpanExporter {
    /// Where batches go, e.g. `http://127.0.0.1:4318/v1/traces`.
    public let endpoint: String
    private let headers: [(name: String, value: String)]
    private let timeout: Duration
    private let resource: TelemetryResource
    private let transport: any OTLPTransport
    private let logger: ResolveKitLogger
    private let time: TelemetryTime
    private let encoder = IdleThread(name: "rk-otlp-encode")

    /// Creates an exporter.
    /// - Parameters:
    ///   - endpoint: The traces endpoint, used as is.
    ///   - headers: Extra header fields (`OTEL_EXPORTER_OTLP_HEADERS`), e.g. an API key.
    ///   - timeout: The deadline of one request (`OTEL_EXPORTER_OTLP_TIMEOUT`, 10 s).
    ///   - resource: The service the spans are about.
    ///   - transport: How requests travel.
    ///   - logger: Where failures are reported.
    ///   - time: The wall clock, to read a `Retry-After` date.
    public init(
        endpoint: String, headers: [(name: String, value: String)] = [], timeout: Duration = .seconds(10),
        resource: TelemetryResource, transport: any OTLPTransport, logger: ResolveKitLogger = .disabled,
        time: TelemetryTime = .system
    ) {
        self.endpoint = endpoint
        self.headers = headers
        self.timeout = timeout
        self.resource = resource
        self.transport = transport
        self.logger = logger
        self.time = time
    }

    /// Encodes the batch (on the exporter's idle thread) and posts it.
    public func export(_ spans: [FinishedSpan]) async -> SpanExportResult {
        let resource = resource
        let body = await encoder.run { OTLPTraceEncoding.encode(spans, resource: resource) }
        let request = OTLPRequest(url: endpoint, headers: OTLPHeaders.fields(headers), body: body, timeout: timeout)
        let response: OTLPResponse
        do {
            response = try await transport.send(request)
        } catch {
            logger.warning(
                "OTLP trace export failed", metadata: ["endpoint": EndpointURL.redacted(endpoint), "error": "\(error)"])
            switch error.code {
            case .invalidConfiguration, .unsupportedEndpoint, .shutdown: return .failure
            default: return .retry(after: nil)
            }
        }
        switch response.status {
        case 200..<300:
            return .success
        case 429, 502, 503, 504:
            logger.debug(
                "OTLP endpoint asked to retry",
                metadata: ["endpoint": EndpointURL.redacted(endpoint), "status": String(response.status)])
            return .retry(
                after: RetryAfter.delay(response.retryAfter, nowUnixSeconds: Int64(time.now() / 1_000_000_000)))
        default:
            logger.warning(
                "OTLP endpoint refused a batch of \(spans.count) spans",
                metadata: [
                    "endpoint": EndpointURL.redacted(endpoint), "status": String(response.status),
                    "body": String(decoding: response.body.prefix(512), as: UTF8.self),
                ])
            return .failure
        }
    }

    /// Shuts the transport down.
    public func shutdown() async {
        await transport.shutdown()
    }
}

/// The header fields of every OTLP request.
enum OTLPHeaders {
    static func fields(_ configured: [(name: String, value: String)]) -> [(name: String, value: String)] {
        let reserved = ["content-type", "user-agent", "content-length", "host"]
        return [
            ("Content-Type", "application/json"), ("User-Agent", "resolvekit-linux/\(TelemetryResource.sdkVersion)"),
        ] + configured.filter { !reserved.contains($0.name.lowercased()) }
    }
}
