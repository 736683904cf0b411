public import ResolveKitCore
import Synchronization

/// Everything telemetry needs in one place, built from a ``TelemetryConfiguration``: the metrics registry (with
/// the process metrics), the tracer with its sampler, and, when the configuration exports, the batch span processor
/// and the metrics pusher with their OTLP exporter.
///
/// ```swift
/// let configuration = try TelemetryConfiguration(environment: environment, defaultServiceName: "rk-service")
/// let telemetry = try Telemetry(configuration: configuration, transport: PlainHTTPTransport())
/// let metrics = try telemetry.metrics(functionNames: ["read_log_tail"])
/// async let exporting: Void = telemetry.run()
/// let turn = telemetry.tracer.startTurn(sessionID: "s-1", requestID: "r-1")
/// turn.finishTurn(ending: .answered, turnID: nil, usage: nil)
/// await telemetry.shutdown(timeout: .seconds(5))
/// await exporting
/// ```
public final class Telemetry: Sendable {
    /// The settings it was built from.
    public let configuration: TelemetryConfiguration
    /// The metrics: scrape it (``MetricsEndpoint``, ``MetricsRegistry/exposition(accept:)``) or push it.
    public let registry: MetricsRegistry
    /// Starts spans; records nothing when tracing is disabled or not exported, but still propagates contexts.
    public let tracer: Tracer
    /// The tracer when spans are recorded and exported; `nil` otherwise (`OTEL_SDK_DISABLED`, no traces endpoint),
    /// so a caller can skip making spans that would record nothing.
    public var recordingTracer: Tracer? { spanProcessor == nil ? nil : tracer }
    /// The span processor, when spans are exported.
    public let spanProcessor: BatchSpanProcessor?
    /// The metrics pusher, when metrics are pushed.
    public let metricsPusher: OTLPMetricsPusher?
    /// The catalog registered in ``registry`` by the first runtime, host or MCP server that used this telemetry.
    private let catalog = Mutex<ResolveKitMetrics?>(nil)
    /// What spans and metrics travel through: shut down by ``shutdown(timeout:)`` once both loops ended, not by
    /// whichever ends first (the metrics' last push may still be under way when the spans' loop ends).
    private let transport: any OTLPTransport

    /// Builds the pieces.
    /// - Parameters:
    ///   - configuration: What to export, where.
    ///   - transport: How exports travel (``PlainHTTPTransport``, or the libcurl one of `ResolveKitTelemetryHTTP`);
    ///     unused when nothing is exported.
    ///   - registry: The registry to use; a new one by default.
    ///   - logger: Where export failures are reported.
    ///   - clock: The clock the loops wait on.
    /// - Throws: ``TelemetryError`` when the registry already holds the process or span metrics.
    public init(
        configuration: TelemetryConfiguration, transport: any OTLPTransport,
        registry: MetricsRegistry = MetricsRegistry(),
        logger: ResolveKitLogger = .disabled, clock: any Clock<Duration> = ContinuousClock()
    ) throws(TelemetryError) {
        self.configuration = configuration
        self.registry = registry
        self.transport = transport
        try registry.register(ProcessMetrics())
        let exporting = !configuration.isDisabled
        if exporting, let traces = configuration.traces {
            let exporter = OTLPSpanExporter(
                endpoint: traces.endpoint, encoding: traces.encoding, compression: traces.compression,
                headers: traces.headers, timeout: traces.timeout, resource: configuration.resource,
                transport: SharedTransport(transport), logger: logger)
            let processor = try BatchSpanProcessor(
                exporter: exporter, configuration: configuration.batch, metrics: registry, clock: clock)
            spanProcessor = processor
            tracer = Tracer(sampler: configuration.sampler, processor: processor)
        } else {
            spanProcessor = nil
            tracer = .disabled
        }
        metricsPusher =
            exporting
            ? configuration.metrics.map {
                OTLPMetricsPusher(
                    registry: registry, export: $0, resource: configuration.resource, transport: transport,
                    interval: configuration.metricExportInterval, clock: clock, logger: logger)
            } : nil
    }

    /// The catalog of metrics every runtime, host and MCP server records through, registered in ``registry`` on
    /// first use with `functionNames` as the values of the `function` label. Everything using this telemetry shares
    /// it: a later caller gets the same catalog, and records its functions that are not in the first caller's set as
    /// `other` (so give a host, rather than several runtimes, one telemetry).
    /// - Throws: ``TelemetryError`` when the registry already holds one of the catalog's names (it was registered
    ///   there by other code), or a function name is `other` or empty.
    public func metrics(functionNames: some Sequence<String>) throws(TelemetryError) -> ResolveKitMetrics {
        try catalog.withLock { catalog throws(TelemetryError) in
            if let catalog { return catalog }
            let made = try ResolveKitMetrics(registry: registry, functionNames: functionNames)
            catalog = made
            return made
        }
    }

    /// Exports the spans queued so far, when the export loop runs; returns at once otherwise. The exports it waits
    /// for are encoded and sent at normal priority, not the kernel's idle one.
    /// - Returns: Whether they were exported (or dropped) before `timeout`.
    @discardableResult
    public func flush(timeout: Duration) async -> Bool {
        guard let spanProcessor, spanProcessor.isRunning else { return true }
        return await spanProcessor.forceFlush(timeout: timeout)
    }

    /// Runs the export loops until ``shutdown(timeout:)`` or cancellation; returns at once when nothing exports.
    ///
    /// The loops run at background priority whatever the caller's (on Linux a pool thread at `nice` 10): what an
    /// export does between its encoding and its transport, which already run on threads at the kernel's idle
    /// priority, never takes a core from a tool call.
    public func run() async {
        guard spanProcessor != nil || metricsPusher != nil else { return }
        await runAtBackgroundPriority { [spanProcessor, metricsPusher] in
            await withTaskGroup(of: Void.self) { group in
                if let spanProcessor { group.addTask { await spanProcessor.run() } }
                if let metricsPusher { group.addTask { await metricsPusher.run() } }
            }
        }
    }

    /// Exports what is queued and ends ``run()``; each loop gets at most `timeout` (what is left is dropped and
    /// counted), and its last exports run at normal priority. Then the transport is shut down.
    public func shutdown(timeout: Duration) async {
        async let spans: Void = spanProcessor?.shutdown(timeout: timeout) ?? ()
        async let metrics: Void = metricsPusher?.shutdown(timeout: timeout) ?? ()
        _ = await (spans, metrics)
        await transport.shutdown()
    }
}

/// The facade's transport as its span exporter sees it: the exporter's shutdown leaves it open for the metrics.
private struct SharedTransport: OTLPTransport {
    let transport: any OTLPTransport

    init(_ transport: any OTLPTransport) {
        self.transport = transport
    }

    func send(_ request: OTLPRequest) async throws(TelemetryError) -> OTLPResponse {
        try await transport.send(request)
    }

    func shutdown() async {}
}
