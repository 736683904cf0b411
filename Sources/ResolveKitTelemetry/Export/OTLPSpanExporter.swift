public import ResolveKitCore

/// Sends batches of spans to an OTLP/HTTP endpoint (`POST …/v1/traces`), in protobuf (`application/x-protobuf`,
/// the default) or JSON, gzipped when asked. A batch is encoded (and compressed) on a thread of the exporter's own at
/// the kernel's idle priority: a 512-span batch takes a core for about a fifth of a millisecond in protobuf (half a
/// millisecond in JSON, and about 0.6 ms more with gzip), which on a busy machine it only gets when no tool call
/// wants it.
///
/// 2xx is success (a partial success drops the spans the endpoint rejected, and says why in a warning); 429, 502,
/// 503 and 504 are retried (after `Retry-After` when the endpoint sends it), as are transport failures; any other
/// status drops the batch. Failures are logged (without header values) through the
/// logger given, never thrown at a span's caller.
public struct OTLPSpanExporter: SpanExporter {
    /// Where batches go, e.g. `http://127.0.0.1:4318/v1/traces`.
    public let endpoint: String
    /// How batches are encoded.
    public let encoding: OTLPEncoding
    /// How batches are compressed.
    public let compression: OTLPCompression
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
    ///   - encoding: How batches are encoded (`OTEL_EXPORTER_OTLP_PROTOCOL`); protobuf by default.
    ///   - compression: How batches are compressed (`OTEL_EXPORTER_OTLP_COMPRESSION`); not by default.
    ///   - headers: Extra header fields (`OTEL_EXPORTER_OTLP_HEADERS`), e.g. an API key.
    ///   - timeout: The deadline of one request (`OTEL_EXPORTER_OTLP_TIMEOUT`, 10 s).
    ///   - resource: The service the spans are about.
    ///   - transport: How requests travel.
    ///   - logger: Where failures are reported.
    ///   - time: The wall clock, to read a `Retry-After` date.
    public init(
        endpoint: String, encoding: OTLPEncoding = .protobuf, compression: OTLPCompression = .none,
        headers: [(name: String, value: String)] = [], timeout: Duration = .seconds(10), resource: TelemetryResource,
        transport: any OTLPTransport, logger: ResolveKitLogger = .disabled, time: TelemetryTime = .system
    ) {
        self.endpoint = endpoint
        self.encoding = encoding
        self.compression = compression
        self.headers = headers
        self.timeout = timeout
        self.resource = resource
        self.transport = transport
        self.logger = logger
        self.time = time
    }

    /// Encodes the batch, and compresses it when asked (on the exporter's idle thread), and posts it.
    public func export(_ spans: [FinishedSpan]) async -> SpanExportResult {
        let (resource, encoding, compression) = (resource, encoding, compression)
        let body = await encoder.run {
            OTLPHeaders.compressed(OTLPTraceEncoding.encode(spans, resource: resource, as: encoding), compression)
        }
        let request = OTLPRequest(
            url: endpoint, headers: OTLPHeaders.fields(headers, encoding: encoding, compression: compression),
            body: body, timeout: timeout)
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
            guard let partial = OTLPAnswer.partialSuccess(in: response.body, countKey: "rejectedSpans") else {
                return .success
            }
            logger.warning(
                "OTLP endpoint rejected \(partial.rejected) of \(spans.count) spans",
                metadata: ["endpoint": EndpointURL.redacted(endpoint), "message": partial.message])
            return partial.rejected > 0 ? .partialSuccess(rejected: partial.rejected) : .success
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
                    "message": OTLPAnswer.refusalMessage(in: response.body),
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
    static func fields(
        _ configured: [(name: String, value: String)], encoding: OTLPEncoding, compression: OTLPCompression
    ) -> [(name: String, value: String)] {
        let reserved = ["content-type", "content-encoding", "user-agent", "content-length", "host"]
        let fixed = [
            ("Content-Type", encoding.contentType),
            ("User-Agent", "resolvekit-linux/\(TelemetryResource.sdkVersion)"),
        ]
        let encoded = compression == .gzip ? [("Content-Encoding", "gzip")] : []
        return fixed + encoded + configured.filter { !reserved.contains($0.name.lowercased()) }
    }

    /// `body` as it is sent with `compression`.
    static func compressed(_ body: [UInt8], _ compression: OTLPCompression) -> [UInt8] {
        compression == .gzip ? Gzip.compress(body) : body
    }
}
