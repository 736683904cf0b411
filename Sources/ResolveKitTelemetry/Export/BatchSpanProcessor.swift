import Synchronization

/// Queues ended spans and exports them in batches on a loop of its own, so that ending a span costs its caller a
/// short lock and an append, whatever the exporter does: an endpoint that is down, slow or answering 503 only fills
/// the bounded queue, and what does not fit is dropped and counted.
///
/// Batches leave when `maxExportBatchSize` spans are queued or `scheduleDelay` after the last export; 429, 502, 503,
/// 504 and transport failures are retried after the endpoint's `Retry-After` or an exponential backoff, up to
/// `maxAttempts` tries. Run the loop with ``run()`` in a task of the host's; ``forceFlush(timeout:)`` and
/// ``shutdown(timeout:)`` bound their waits.
///
/// ```swift
/// let processor = try BatchSpanProcessor(exporter: exporter, metrics: registry)
/// let tracer = Tracer(processor: processor)
/// async let loop: Void = processor.run()
/// …
/// await processor.shutdown(timeout: .seconds(5))
/// await loop
/// ```
public final class BatchSpanProcessor: SpanProcessor, Sendable {
    /// The processor's limits and timing (`OTEL_BSP_*`).
    public struct Configuration: Sendable, Hashable {
        /// Spans waiting for export, at most (`OTEL_BSP_MAX_QUEUE_SIZE`, 2048); more are dropped.
        public var maxQueueSize: Int
        /// Spans per export, at most (`OTEL_BSP_MAX_EXPORT_BATCH_SIZE`, 512; at most the queue size).
        public var maxExportBatchSize: Int
        /// The wait between exports while fewer than a batch are queued (`OTEL_BSP_SCHEDULE_DELAY`, 5 s).
        public var scheduleDelay: Duration
        /// Tries per batch, the first included; then the batch is dropped (5).
        public var maxAttempts: Int
        /// The first backoff after a failure without `Retry-After`; it doubles per try (1 s).
        public var initialBackoff: Duration
        /// The longest wait before a retry, `Retry-After` included (30 s).
        public var maxBackoff: Duration

        /// Creates a configuration; the defaults are OpenTelemetry's.
        public init(
            maxQueueSize: Int = 2048, maxExportBatchSize: Int = 512, scheduleDelay: Duration = .seconds(5),
            maxAttempts: Int = 5, initialBackoff: Duration = .seconds(1), maxBackoff: Duration = .seconds(30)
        ) {
            self.maxQueueSize = max(1, maxQueueSize)
            self.maxExportBatchSize = min(max(1, maxExportBatchSize), self.maxQueueSize)
            self.scheduleDelay = scheduleDelay
            self.maxAttempts = max(1, maxAttempts)
            self.initialBackoff = initialBackoff
            self.maxBackoff = maxBackoff
        }
    }

    private struct Flushes {
        var nextID = 0
        var signals: [Int: OneTimeSignal] = [:]
    }

    /// A span in the queue: described when it ended, or to be described when it is exported.
    enum QueuedSpan: Sendable {
        case finished(FinishedSpan)
        case deferred(DeferredSpan)

        var finished: FinishedSpan {
            switch self {
            case .finished(let span): span
            case .deferred(let span): span.finished()
            }
        }
    }

    private let machine: Mutex<StateMachine<QueuedSpan>>
    private let flushes = Mutex(Flushes())
    private let wakeup = Wakeup()
    private let finished = OneTimeSignal()
    private let exporter: any SpanExporter
    private let clock: any Clock<Duration>
    private let jitter: @Sendable () -> Double
    private let droppedCounter: Counter<EnumLabel<DropReason>>?
    private let exportedCounter: Counter<>?
    private let running = Atomic<Bool>(false)
    /// Where deferred spans are described before export: at the kernel's idle priority, as the exporters encode (at
    /// normal priority while a flush or shutdown waits).
    private let describer = IdleThread(name: "rk-otlp-describe")

    /// Creates a processor.
    /// - Parameters:
    ///   - exporter: Where batches go.
    ///   - configuration: Limits and timing.
    ///   - metrics: Where `resolvekit_telemetry_spans_dropped_total{reason}` and
    ///     `resolvekit_telemetry_spans_exported_total` are registered; `nil` for none.
    ///   - clock: The clock the loop waits on (a `ManualClock` in tests).
    ///   - jitter: A value in −1…1 that spreads each backoff by up to ±20 %; random by default.
    /// - Throws: ``TelemetryError`` when the registry already has those metrics.
    public init(
        exporter: any SpanExporter, configuration: Configuration = Configuration(), metrics: MetricsRegistry? = nil,
        clock: any Clock<Duration> = ContinuousClock(),
        jitter: @escaping @Sendable () -> Double = {
            Double.random(in: -1...1)
        }
    ) throws(TelemetryError) {
        self.exporter = exporter
        self.clock = clock
        self.jitter = jitter
        machine = Mutex(
            StateMachine(
                configuration: StateMachine.Configuration(
                    maxQueueSize: configuration.maxQueueSize, maxBatchSize: configuration.maxExportBatchSize,
                    scheduleDelay: configuration.scheduleDelay, maxAttempts: configuration.maxAttempts,
                    initialBackoff: configuration.initialBackoff, maxBackoff: configuration.maxBackoff)))
        droppedCounter = try metrics?.counter(
            MetricDescriptor(
                "resolvekit_telemetry_spans_dropped", help: "Spans not exported, by reason.", unit: "{span}",
                otelName: "resolvekit.telemetry.spans.dropped"),
            labels: EnumLabel("reason", of: DropReason.self))
        exportedCounter = try metrics?.counter(
            MetricDescriptor(
                "resolvekit_telemetry_spans_exported", help: "Spans the OTLP endpoint took.", unit: "{span}",
                otelName: "resolvekit.telemetry.spans.exported"))
    }

    /// Queues a span that ended; never waits. A full queue, or a processor shut down, drops it and counts it.
    public func onEnd(_ span: consuming FinishedSpan) {
        queue(.finished(span))
    }

    /// Queues a span that ended, to be described when it is exported; never waits. A full queue, or a processor shut
    /// down, drops it and counts it.
    public func onEnd(_ span: consuming DeferredSpan) {
        queue(.deferred(span))
    }

    private func queue(_ span: consuming QueuedSpan) {
        // Moved, not copied, into the queue: a copy retains each of the span's strings and closures, whose counts
        // sit in memory the caller has not touched lately.
        var moving = Optional(span)
        let action = machine.withLock { $0.spanEnded(moving.take()!) }
        switch action {
        case .queued: break
        case .queuedAndWake: wakeup.signal()
        case .dropped(let reason): droppedCounter?.increment(reason)
        }
    }

    /// Spans dropped so far, by reason.
    public func droppedCount(_ reason: DropReason) -> Int {
        machine.withLock { $0.dropped[reason] ?? 0 }
    }

    /// Spans exported so far.
    public var exportedCount: Int { machine.withLock { $0.exported } }

    /// Spans that ended so far, whatever became of them: once ``run()`` returned, each was exported or dropped.
    public var receivedCount: Int { machine.withLock { $0.received } }

    /// Whether ``run()`` is running: only then does a flush export anything.
    public var isRunning: Bool { running.load(ordering: .relaxed) }

    /// Whether a flush waits or shutdown began: what is exported from then on runs at normal priority.
    private var isUrgent: Bool { machine.withLock { $0.isUrgent } }

    /// Spans waiting in the queue now.
    public var queuedCount: Int { machine.withLock { $0.queuedCount } }

    /// The export loop: returns after ``shutdown(timeout:)`` once the queue is exported (or its deadline passed),
    /// or when the calling task is cancelled (what is still queued is then dropped and counted). Run it once.
    public func run() async {
        running.store(true, ordering: .relaxed)
        defer {
            running.store(false, ordering: .relaxed)
            finished.fire()
        }
        while true {
            if Task.isCancelled { abandon() }
            let (action, urgently) = machine.withLock { ($0.nextAction(), $0.isUrgent) }
            switch action {
            case .finish:
                await exporter.shutdown()
                return
            case .wait(let duration):
                let timedOut = await wakeup.wait(for: duration, clock: clock)
                machine.withLock { $0.waitEnded(timedOut: timedOut) }
            case .export(let batch):
                let spans = await describer.run(urgently: urgently) { batch.map(\.finished) }
                let result = await export(spans, urgently: urgently || isUrgent)
                let jitter = self.jitter()
                complete(counting { $0.exportEnded(result, jitter: jitter) })
                // The batch ends here, not in the machine's lock (where a span that ends would wait for its 512
                // spans to be freed), and on the idle thread.
                describer.discard((consume batch, consume spans))
            }
        }
    }

    /// Exports a described batch: urgently from the start if a flush came while it was described, and an exporter
    /// that can look again does so before each later step.
    private func export(_ spans: [FinishedSpan], urgently: Bool) async -> SpanExportResult {
        guard let exporter = exporter as? any UrgencyAwareExporter else {
            return await exporter.export(spans, urgently: urgently)
        }
        return await exporter.export(spans, urgently: urgently) { [self] in isUrgent }
    }

    /// Exports every span queued so far, without waiting for the schedule.
    /// - Returns: Whether they were all exported or dropped before `timeout`; the export goes on either way.
    @discardableResult
    public func forceFlush(timeout: Duration) async -> Bool {
        let signal = OneTimeSignal()
        let id = flushes.withLock { flushes -> Int in
            defer { flushes.nextID += 1 }
            flushes.signals[flushes.nextID] = signal
            return flushes.nextID
        }
        let (done, wake) = machine.withLock { $0.flushRequested(id: id) }
        if done { complete([id]) }
        if wake { wakeup.signal() }
        let settled = await signal.wait(for: timeout, clock: clock)
        if !settled {
            machine.withLock { $0.flushAbandoned(id: id) }
            _ = flushes.withLock { $0.signals.removeValue(forKey: id) }
        }
        return settled
    }

    /// Stops taking spans, exports what is queued and ends ``run()``. When `timeout` passes first, what is still
    /// queued is dropped (counted as `shutdown`) and the loop ends after the export in progress, if any.
    public func shutdown(timeout: Duration) async {
        if machine.withLock({ $0.shutdownRequested() }) { wakeup.signal() }
        guard await !finished.wait(for: timeout, clock: clock) else { return }
        abandon()
        wakeup.signal()
    }

    /// Drops what is queued (counted as `shutdown`) and lets the loop finish.
    private func abandon() {
        complete(counting { $0.abandon() })
    }

    /// Runs `step` on the machine and adds what it exported and dropped to the counters; returns its result.
    private func counting<Result>(_ step: (inout StateMachine<QueuedSpan>) -> Result) -> Result {
        let (result, exported, dropped) = machine.withLock { machine in
            let (exportedBefore, droppedBefore) = (machine.exported, machine.dropped)
            let result = step(&machine)
            let dropped = machine.dropped.map { ($0.key, $0.value - (droppedBefore[$0.key] ?? 0)) }
            return (result, machine.exported - exportedBefore, dropped)
        }
        if exported > 0 { exportedCounter?.add(UInt64(exported)) }
        for (reason, count) in dropped where count > 0 { droppedCounter?.add(UInt64(count), reason) }
        return result
    }

    private func complete(_ ids: [Int]) {
        guard !ids.isEmpty else { return }
        let signals = flushes.withLock { flushes in ids.compactMap { flushes.signals.removeValue(forKey: $0) } }
        signals.forEach { $0.fire() }
    }
}
