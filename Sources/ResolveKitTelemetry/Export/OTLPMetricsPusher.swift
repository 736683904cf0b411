public import ResolveKitCore

/// Pushes a registry's values to an OTLP/HTTP metrics endpoint every interval (cumulative, so a lost push only
/// delays the next values), and once more at shutdown. For hosts whose collector takes OTLP rather than scraping.
public final class OTLPMetricsPusher: Sendable {
    private let registry: MetricsRegistry
    private let export: TelemetryConfiguration.Export
    private let resource: TelemetryResource
    private let transport: any OTLPTransport
    private let interval: Duration
    private let clock: any Clock<Duration>
    private let time: TelemetryTime
    private let logger: ResolveKitLogger
    private let startTime: UInt64
    private let stop = Wakeup()
    private let stopped = OneTimeSignal()
    /// Encodes and compresses each push at the kernel's idle priority (the last, at normal priority), as the span
    /// exporter does.
    private let encoder = IdleThread(name: "rk-otlp-metrics")

    /// Creates a pusher.
    /// - Parameters:
    ///   - registry: What is pushed.
    ///   - export: Where, in which encoding, with which headers and timeout.
    ///   - resource: The service the metrics are about.
    ///   - transport: How requests travel.
    ///   - interval: The time between pushes (`OTEL_METRIC_EXPORT_INTERVAL`).
    ///   - clock: The clock the loop waits on.
    ///   - time: The wall clock for timestamps.
    ///   - logger: Where failed pushes are reported.
    public init(
        registry: MetricsRegistry, export: TelemetryConfiguration.Export, resource: TelemetryResource,
        transport: any OTLPTransport, interval: Duration = .seconds(60), clock: any Clock<Duration> = ContinuousClock(),
        time: TelemetryTime = .system, logger: ResolveKitLogger = .disabled
    ) {
        self.registry = registry
        self.export = export
        self.resource = resource
        self.transport = transport
        self.interval = interval
        self.clock = clock
        self.time = time
        self.logger = logger
        self.startTime = time.now()
    }

    /// Pushes every interval until ``shutdown()`` (which pushes once more) or the task's cancellation.
    public func run() async {
        defer { stopped.fire() }
        while !Task.isCancelled {
            let timedOut = await stop.wait(for: interval, clock: clock)
            // The last push, at shutdown, is waited for: at normal priority.
            _ = await push(urgently: !timedOut)
            if !timedOut { return }
        }
    }

    /// Pushes the registry's current values once; `urgently`, at normal priority rather than in the background
    /// (the last push at shutdown is).
    /// - Returns: Whether the endpoint took them.
    @discardableResult
    public func push(urgently: Bool = false) async -> Bool {
        // The values are read here (their locks are the calls' too); the bytes are made on the idle thread.
        let snapshot = registry.snapshot()
        let (resource, startTime, now, export) = (resource, startTime, time.now(), export)
        let body = await encoder.run(urgently: urgently) {
            let encoded = OTLPMetricsEncoding.encode(
                snapshot, resource: resource, startTimeUnixNano: startTime, timeUnixNano: now, as: export.encoding)
            return OTLPCall.body(encoded, export.encoding, export.compression)
        }
        do {
            let response = try await transport.send(
                OTLPCall.request(body, to: export, method: .metrics, urgently: urgently))
            let now = Int64(time.now() / 1_000_000_000)
            switch OTLPAnswer.verdict(response, isGRPC: export.encoding == .grpc, nowUnixSeconds: now) {
            case .accepted(let body):
                if let partial = OTLPAnswer.partialSuccess(in: body, countKey: "rejectedDataPoints") {
                    logger.warning(
                        "OTLP endpoint rejected \(partial.rejected) data points",
                        metadata: ["endpoint": EndpointURL.redacted(export.endpoint), "message": partial.message])
                }
                return true
            case .retry(_, let status):
                // Not sent again: the next push carries the values anyway.
                let grpcMessage = response.grpcStatus?.message
                refused(status: status, message: grpcMessage ?? OTLPAnswer.refusalMessage(in: response.body))
                return false
            case .refused(let status, let message):
                refused(status: status, message: message)
                return false
            }
        } catch {
            logger.warning(
                "OTLP metrics push failed",
                metadata: ["endpoint": EndpointURL.redacted(export.endpoint), "error": "\(error)"])
            return false
        }
    }

    private func refused(status: String, message: String) {
        logger.warning(
            "OTLP metrics push refused",
            metadata: ["endpoint": EndpointURL.redacted(export.endpoint), "status": status, "message": message])
    }

    /// Ends ``run()`` after a last push; waits for it at most `timeout`.
    public func shutdown(timeout: Duration) async {
        stop.signal()
        _ = await stopped.wait(for: timeout, clock: clock)
    }
}
