/// Telemetry settings read from OpenTelemetry's standard environment variables, as the specification says, from a
/// `[String: String]` (a test's, or `ProcessInfo.processInfo.environment`).
///
/// | Variable | Effect |
/// | --- | --- |
/// | `OTEL_SDK_DISABLED=true` | no spans recorded, nothing exported (metrics stay scrapeable) |
/// | `OTEL_SERVICE_NAME`, `OTEL_RESOURCE_ATTRIBUTES` | the resource (`service.name` from the first, else the second) |
/// | `OTEL_EXPORTER_OTLP_ENDPOINT` | base URL; `/v1/traces` and `/v1/metrics` are appended (not over gRPC) |
/// | `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`, `…_METRICS_ENDPOINT` | a signal's URL, used as is |
/// | `OTEL_EXPORTER_OTLP_HEADERS`, `…_TRACES_HEADERS`, `…_METRICS_HEADERS` | `key=value,…`, percent-decoded |
/// | `OTEL_EXPORTER_OTLP_TIMEOUT`, `…_TRACES_TIMEOUT`, `…_METRICS_TIMEOUT` | milliseconds per request (10000) |
/// | `OTEL_EXPORTER_OTLP_PROTOCOL` (and per signal) | `http/protobuf` (default), `http/json` or `grpc` |
/// | `OTEL_EXPORTER_OTLP_INSECURE` (and per signal) | `true`: a gRPC endpoint without scheme is clear text (else TLS) |
/// | `OTEL_EXPORTER_OTLP_COMPRESSION` (and per signal) | `none` (default) or `gzip`; anything else is an error |
/// | `OTEL_TRACES_EXPORTER`, `OTEL_METRICS_EXPORTER` | `otlp` or `none` |
/// | `OTEL_TRACES_SAMPLER`, `OTEL_TRACES_SAMPLER_ARG` | the sampler (`parentbased_always_on`) and its ratio |
/// | `OTEL_BSP_SCHEDULE_DELAY`, `…_EXPORT_TIMEOUT`, `…_MAX_QUEUE_SIZE`, `…_MAX_EXPORT_BATCH_SIZE` | batching |
/// | `OTEL_METRIC_EXPORT_INTERVAL`, `OTEL_METRIC_EXPORT_TIMEOUT` | metrics push timing (60000, 30000 ms) |
///
/// Traces are exported when an endpoint variable is set or `OTEL_TRACES_EXPORTER=otlp` (then to
/// `http://localhost:4318`, or `http://localhost:4317` over gRPC); metrics are pushed only with
/// `OTEL_METRICS_EXPORTER=otlp` or a metrics endpoint, since `/metrics` serves them to Prometheus. Over gRPC an
/// endpoint is the collector's address (`http://` for clear-text HTTP/2, `https://` for TLS, or a bare `host:port`,
/// TLS unless `OTEL_EXPORTER_OTLP_INSECURE=true`), and the service's method path is appended to it. A value that cannot be read is ignored with a warning in ``warnings``, as the
/// specification asks; an endpoint that is not a URL, or a protocol not spoken, is an error.
public struct TelemetryConfiguration: Sendable {
    /// Where one signal is exported.
    public struct Export: Sendable, CustomStringConvertible {
        /// The URL posted to; over gRPC the collector's address (`http://collector:4317`), to which the
        /// service's method path is appended.
        public var endpoint: String
        /// How bodies are encoded.
        public var encoding: OTLPEncoding
        /// How bodies are compressed.
        public var compression: OTLPCompression
        /// Extra header fields; their values may be credentials and never appear in ``description``.
        public var headers: [(name: String, value: String)]
        /// The deadline of one request.
        public var timeout: Duration

        /// Creates an export target; bodies are protobuf, not compressed, as OpenTelemetry's exporters send by
        /// default.
        public init(
            endpoint: String, encoding: OTLPEncoding = .protobuf, compression: OTLPCompression = .none,
            headers: [(name: String, value: String)] = [], timeout: Duration = .seconds(10)
        ) {
            self.endpoint = endpoint
            self.encoding = encoding
            self.compression = compression
            self.headers = headers
            self.timeout = timeout
        }

        /// The endpoint (without credentials), the encoding and compression, the header names and the timeout.
        public var description: String {
            let names = headers.map(\.name).joined(separator: ", ")
            let gzip = compression == .gzip ? " gzip" : ""
            return "\(EndpointURL.redacted(endpoint)) (\(encoding.rawValue)\(gzip), timeout \(timeout)"
                + "\(names.isEmpty ? "" : ", headers: \(names)"))"
        }
    }

    /// `OTEL_SDK_DISABLED=true`: spans are not recorded and nothing is exported.
    public var isDisabled: Bool
    /// The service the telemetry is about.
    public var resource: TelemetryResource
    /// Where spans go; `nil` when they are not exported.
    public var traces: Export?
    /// Where metrics are pushed; `nil` when they are only scraped.
    public var metrics: Export?
    /// Which traces are recorded.
    public var sampler: Sampler
    /// The batch span processor's settings.
    public var batch: BatchSpanProcessor.Configuration
    /// The time between metric pushes.
    public var metricExportInterval: Duration
    /// Settings that were ignored, and why (without their values: a header may hold a credential).
    public var warnings: [String]

    /// Creates a configuration by hand.
    public init(
        isDisabled: Bool = false, resource: TelemetryResource, traces: Export? = nil, metrics: Export? = nil,
        sampler: Sampler = .parentBased(root: .alwaysOn),
        batch: BatchSpanProcessor.Configuration = BatchSpanProcessor.Configuration(),
        metricExportInterval: Duration = .seconds(60), warnings: [String] = []
    ) {
        self.isDisabled = isDisabled
        self.resource = resource
        self.traces = traces
        self.metrics = metrics
        self.sampler = sampler
        self.batch = batch
        self.metricExportInterval = metricExportInterval
        self.warnings = warnings
    }

    /// Reads the `OTEL_*` variables of `environment`.
    /// - Parameters:
    ///   - environment: The variables.
    ///   - defaultServiceName: `service.name` when neither `OTEL_SERVICE_NAME` nor `OTEL_RESOURCE_ATTRIBUTES` names
    ///     one, e.g. `rk-service`.
    /// - Throws: ``TelemetryError/Code/invalidConfiguration`` for an endpoint that is not an `http://` or
    ///   `https://` URL, or a protocol other than `http/protobuf`, `http/json` and `grpc`.
    public init(environment: [String: String], defaultServiceName: String) throws(TelemetryError) {
        var reader = EnvironmentReader(environment)
        isDisabled = reader.flag("OTEL_SDK_DISABLED")
        var attributes = reader.keyValueList("OTEL_RESOURCE_ATTRIBUTES").map { SpanAttribute($0.0, .string($0.1)) }
        let named = attributes.first { $0.key == "service.name" }.flatMap { attribute -> String? in
            guard case .string(let name) = attribute.value else { return nil }
            return name
        }
        attributes.removeAll { $0.key == "service.name" }
        let serviceName = reader.nonEmpty("OTEL_SERVICE_NAME") ?? named ?? defaultServiceName
        resource = TelemetryResource(serviceName: serviceName, attributes: attributes)
        sampler = reader.sampler()
        let delay = reader.milliseconds("OTEL_BSP_SCHEDULE_DELAY", default: 5000)
        let maxQueue = reader.integer("OTEL_BSP_MAX_QUEUE_SIZE", default: 2048)
        var maxBatch = reader.integer("OTEL_BSP_MAX_EXPORT_BATCH_SIZE", default: 512)
        if maxBatch > maxQueue {
            reader.warn("OTEL_BSP_MAX_EXPORT_BATCH_SIZE is larger than OTEL_BSP_MAX_QUEUE_SIZE: using the queue size")
            maxBatch = maxQueue
        }
        batch = BatchSpanProcessor.Configuration(
            maxQueueSize: maxQueue, maxExportBatchSize: maxBatch, scheduleDelay: delay)
        let exportTimeout = reader.milliseconds("OTEL_BSP_EXPORT_TIMEOUT", default: 30_000)
        metricExportInterval = reader.milliseconds("OTEL_METRIC_EXPORT_INTERVAL", default: 60_000)
        let metricTimeout = reader.milliseconds("OTEL_METRIC_EXPORT_TIMEOUT", default: 30_000)

        traces = try reader.export(
            signal: "TRACES", path: "v1/traces", genericEndpointExports: true, cap: exportTimeout)
        metrics = try reader.export(
            signal: "METRICS", path: "v1/metrics", genericEndpointExports: false, cap: metricTimeout)
        warnings = reader.warnings
    }
}
