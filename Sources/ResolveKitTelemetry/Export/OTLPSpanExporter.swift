public import ResolveKitCore

/// Sends batches of spans to an OTLP endpoint: over HTTP (`POST …/v1/traces`) in protobuf (`application/x-protobuf`,
/// the default) or JSON, or as a gRPC call to the collector's `TraceService/Export`; gzipped when asked. A batch is
/// encoded (and compressed) on a thread of the exporter's own at the kernel's idle priority: a 512-span batch takes a
/// core for about a fifth of a millisecond in protobuf (half a millisecond in JSON, and about 0.6 ms more with gzip),
/// which on a busy machine it only gets when no tool call wants it. A batch someone waits for (a flush, the last
/// exports at shutdown) is encoded at normal priority instead.
///
/// 2xx is success (a partial success drops the spans the endpoint rejected, and says why in a warning); 429, 502,
/// 503 and 504 are retried (after `Retry-After` when the endpoint sends it), as are transport failures; any other
/// status drops the batch. Over gRPC the `grpc-status` decides: `OK` is success, the codes OTLP calls transient
/// (`UNAVAILABLE`, `DEADLINE_EXCEEDED` …, and `RESOURCE_EXHAUSTED` with a `RetryInfo`) are retried after the delay
/// the server gives, any other drops the batch. Failures are logged (without header values) through the
/// logger given, never thrown at a span's caller.
public struct OTLPSpanExporter: SpanExporter, UrgencyAwareExporter {
    /// Where batches go, e.g. `http://127.0.0.1:4318/v1/traces`; over gRPC the collector's address
    /// (`http://127.0.0.1:4317`), to which the method's path is appended.
    public var endpoint: String { target.endpoint }
    /// How batches are encoded.
    public var encoding: OTLPEncoding { target.encoding }
    /// How batches are compressed.
    public var compression: OTLPCompression { target.compression }
    private let target: TelemetryConfiguration.Export
    private let resource: TelemetryResource
    private let transport: any OTLPTransport
    private let logger: ResolveKitLogger
    private let time: TelemetryTime
    private let encoder = IdleThread(name: "rk-otlp-encode")

    /// Creates an exporter.
    /// - Parameters:
    ///   - endpoint: The traces endpoint, used as is over HTTP; over gRPC the collector's address.
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
        target = TelemetryConfiguration.Export(
            endpoint: endpoint, encoding: encoding, compression: compression, headers: headers, timeout: timeout)
        self.resource = resource
        self.transport = transport
        self.logger = logger
        self.time = time
    }

    /// Encodes, compresses when asked and (over gRPC) frames the batch on the exporter's idle thread, and posts it.
    public func export(_ spans: [FinishedSpan]) async -> SpanExportResult {
        await export(spans, urgently: false)
    }

    /// Exports the batch as ``export(_:)`` does; `urgently`, its encoding and its request run at normal priority
    /// (a flush, or the last exports at shutdown, which on a busy machine the idle thread would hold up). Under a
    /// ``BatchSpanProcessor``, a batch encoded routinely is sent urgently when a flush was asked for meanwhile.
    public func export(_ spans: [FinishedSpan], urgently: Bool) async -> SpanExportResult {
        await export(spans, urgently: urgently) { false }
    }

    func export(
        _ spans: [FinishedSpan], urgently: Bool, isUrgentNow: @escaping @Sendable () -> Bool
    ) async -> SpanExportResult {
        let (resource, encoding, compression) = (resource, encoding, compression)
        let body = await encoder.run(urgently: urgently) {
            OTLPCall.body(OTLPTraceEncoding.encode(spans, resource: resource, as: encoding), encoding, compression)
        }
        let response: OTLPResponse
        do {
            response = try await transport.send(
                OTLPCall.request(body, to: target, method: .traces, urgently: urgently || isUrgentNow()))
        } catch {
            logger.warning(
                "OTLP trace export failed", metadata: ["endpoint": EndpointURL.redacted(endpoint), "error": "\(error)"])
            switch error.code {
            case .invalidConfiguration, .unsupportedEndpoint, .shutdown: return .failure
            default: return .retry(after: nil)
            }
        }
        let now = Int64(time.now() / 1_000_000_000)
        switch OTLPAnswer.verdict(response, isGRPC: encoding == .grpc, nowUnixSeconds: now) {
        case .accepted(let body):
            guard let partial = OTLPAnswer.partialSuccess(in: body, countKey: "rejectedSpans") else {
                return .success
            }
            logger.warning(
                "OTLP endpoint rejected \(partial.rejected) of \(spans.count) spans",
                metadata: ["endpoint": EndpointURL.redacted(endpoint), "message": partial.message])
            return partial.rejected > 0 ? .partialSuccess(rejected: partial.rejected) : .success
        case .retry(let delay, let status):
            // A warning as a failed connection's is: a collector that keeps asking loses the batch in the end.
            logger.warning(
                "OTLP endpoint asked to retry a batch of \(spans.count) spans",
                metadata: ["endpoint": EndpointURL.redacted(endpoint), "status": status])
            return .retry(after: delay)
        case .refused(let status, let message):
            logger.warning(
                "OTLP endpoint refused a batch of \(spans.count) spans",
                metadata: ["endpoint": EndpointURL.redacted(endpoint), "status": status, "message": message])
            return .failure
        }
    }

    /// Shuts the transport down.
    public func shutdown() async {
        await transport.shutdown()
    }
}
