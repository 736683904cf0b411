import ResolveKitCore
import ResolveKitTelemetry
import ResolveKitTesting
import Synchronization
import Testing

@Suite(.timeLimit(.minutes(1)))
struct BatchSpanProcessorTests {

    /// Waits for what an export does. The exporter encodes and sends on threads at the kernel's idle priority, which
    /// get a core only when nothing else wants it: in a full test run on two cores that can take many seconds.
    static func exported(_ condition: () -> Bool) async -> Bool {
        await pollUntil(timeout: .seconds(60), condition)
    }
    static let resource = TelemetryResource(serviceName: "processor-tests")

    static func exporter(_ url: String, timeout: Duration = .seconds(30)) throws -> OTLPSpanExporter {
        OTLPSpanExporter(
            endpoint: url + "/v1/traces", timeout: timeout, resource: resource, transport: try PlainHTTPTransport())
    }

    static func processor(
        _ exporter: OTLPSpanExporter, clock: ManualClock, queue: Int = 100, batch: Int = 10,
        registry: MetricsRegistry? = nil
    ) throws -> BatchSpanProcessor {
        try BatchSpanProcessor(
            exporter: exporter,
            configuration: BatchSpanProcessor.Configuration(
                maxQueueSize: queue, maxExportBatchSize: batch, scheduleDelay: .seconds(5), maxAttempts: 3),
            metrics: registry, clock: clock, jitter: { 0 })
    }

    /// A processor exporting to `exporter` in batches of two, on a clock that never moves by itself.
    static func batchesOfTwo(_ exporter: any SpanExporter) throws -> BatchSpanProcessor {
        try BatchSpanProcessor(
            exporter: exporter,
            configuration: BatchSpanProcessor.Configuration(
                maxQueueSize: 100, maxExportBatchSize: 2, scheduleDelay: .seconds(5)),
            clock: ManualClock(), jitter: { 0 })
    }

    @Test func fullBatchesLeaveAtOnceAndTheRestAfterTheSchedule() async throws {
        let receiver = OTLPReceiver()
        try await LoopbackHTTPServer.withServer(handler: receiver.handler) { server in
            let clock = ManualClock()
            let processor = try Self.processor(Self.exporter(server.baseURL), clock: clock, batch: 2)
            let tracer = Tracer(processor: processor)
            async let loop: Void = processor.run()
            for index in 0..<3 { tracer.startSpan("span \(index)").end() }
            #expect(await Self.exported { receiver.requests.count == 1 })
            await clock.waitForSleeper(at: clock.now.advanced(by: .seconds(5)))
            #expect(receiver.requests.count == 1)
            clock.advance(by: .seconds(5))
            // A wait that failed ends the test, rather than the whole run on an index out of range.
            try #require(await Self.exported { receiver.requests.count == 2 })
            let first = receiver.requests[0]
            #expect(first.method == "POST")
            #expect(first.path == "/v1/traces")
            #expect(first.header("Content-Type") == "application/x-protobuf")
            #expect(OTLPTraceCollector.spans(in: first.body).map(\.name) == ["span 0", "span 1"])
            #expect(OTLPTraceCollector.spans(in: receiver.requests[1].body).map(\.name) == ["span 2"])
            await processor.shutdown(timeout: .seconds(1))
            await loop
            #expect(processor.exportedCount == 3)
        }
    }

    @Test func aDeferredSpanIsDescribedWhenExportedWithinTheLimitsAndItsEndTime() async throws {
        let receiver = OTLPReceiver()
        try await LoopbackHTTPServer.withServer(handler: receiver.handler) { server in
            let clock = ManualClock()
            let processor = try Self.processor(Self.exporter(server.baseURL), clock: clock, batch: 2)
            let tracer = Tracer(processor: processor, limits: SpanLimits(maxAttributes: 2))
            let described = Atomic<Int>(0)
            let span = tracer.begin(parent: .root, startTime: 1_000)
            tracer.end(span, endTime: 5_000) {
                described.add(1, ordering: .relaxed)
                return SpanDescription(
                    "late", kind: .client,
                    attributes: [SpanAttribute("a", "1"), SpanAttribute("b", "2"), SpanAttribute("c", "3")],
                    status: .error(description: "HTTP 503"))
            }
            tracer.endFunctionRun(tracer.begin(parent: .root), function: "f", errorType: nil)
            // Queued as they ended; their names and attributes are put together only for the export.
            #expect(processor.queuedCount == 2)
            #expect(described.load(ordering: .relaxed) == 0)
            async let loop: Void = processor.run()
            try #require(await Self.exported { processor.exportedCount == 2 })
            #expect(described.load(ordering: .relaxed) == 1)
            let spans = OTLPTraceCollector.spans(in: try #require(receiver.requests.first).body)
            try #require(spans.count == 2)
            #expect(spans.map(\.name) == ["late", "run f"])
            #expect(spans[0].attributes == ["a": "1", "b": "2"])
            #expect(spans[0].kind == 3)
            #expect(spans[0].statusCode == 2)
            #expect(spans[0].startTimeUnixNano == 1_000)
            #expect(spans[0].endTimeUnixNano == 5_000)
            #expect(spans[0].spanID == span.context.spanID.hexString)
            await processor.shutdown(timeout: .seconds(1))
            await loop
        }
    }

    @Test func a503WithRetryAfterIsSentAgainAfterThatWait() async throws {
        let receiver = OTLPReceiver([OTLPReceiver.Reply(status: 503, retryAfter: "7")])
        try await LoopbackHTTPServer.withServer(handler: receiver.handler) { server in
            let clock = ManualClock()
            let processor = try Self.processor(Self.exporter(server.baseURL), clock: clock, batch: 1)
            async let loop: Void = processor.run()
            Tracer(processor: processor).startSpan("retried").end()
            await clock.waitForSleeper(at: clock.now.advanced(by: .seconds(7)))
            #expect(receiver.requests.count == 1)
            clock.advance(by: .seconds(7))
            #expect(await Self.exported { processor.exportedCount == 1 })
            try #require(receiver.requests.count == 2)
            #expect(receiver.requests[0].body == receiver.requests[1].body)
            await processor.shutdown(timeout: .seconds(1))
            await loop
        }
    }

    @Test func anEndpointThatIsDownCostsTheCallerNothingAndTheDropsAreCounted() async throws {
        let down = try LoopbackHTTPServer.start(handler: { _ in LoopbackResponse(status: 200) })
        let url = down.baseURL
        await down.stop()
        let clock = ManualClock()
        let registry = MetricsRegistry()
        let processor = try Self.processor(Self.exporter(url), clock: clock, registry: registry)
        let tracer = Tracer(processor: processor)
        async let loop: Void = processor.run()
        let timing = Self.endSpans(1_000, with: tracer)
        // The refused export is retried after a backoff on the manual clock, so nothing leaves meanwhile.
        await clock.waitForSleeper(at: clock.now.advanced(by: .seconds(1)))
        #expect(timing.max < .milliseconds(500), "the slowest end() took \(timing.max)")
        #expect(timing.total < .seconds(2), "1,000 ends took \(timing.total)")
        let queueFull = processor.droppedCount(.queueFull)
        #expect(queueFull == 1_000 - 100 - 10 || queueFull == 1_000 - 100, "queue 100, one batch of 10 out")
        let shutdown = Task { await processor.shutdown(timeout: .seconds(2)) }
        await clock.waitForSleeper(at: clock.now.advanced(by: .seconds(2)))
        clock.advance(by: .seconds(2))
        await shutdown.value
        await loop
        let lost =
            processor.droppedCount(.queueFull) + processor.droppedCount(.shutdown)
            + processor.droppedCount(.exportFailed)
        #expect(lost == 1_000)
        let samples = ExpositionSamples(registry.exposition())
        #expect(samples[#"resolvekit_telemetry_spans_dropped_total{reason="queue_full"}"#] == Double(queueFull))
        #expect(
            samples[#"resolvekit_telemetry_spans_dropped_total{reason="shutdown"}"#]
                == Double(processor.droppedCount(.shutdown)))
        #expect(samples["resolvekit_telemetry_spans_exported_total"] == 0)
    }

    @Test func anEndpointAnswering503CostsTheCallerNothingAndTheDropsAreCounted() async throws {
        let refusals = (0..<10).map { _ in OTLPReceiver.Reply(status: 503, retryAfter: "30") }
        let receiver = OTLPReceiver(refusals)
        try await LoopbackHTTPServer.withServer(handler: receiver.handler) { server in
            let clock = ManualClock()
            let registry = MetricsRegistry()
            let processor = try Self.processor(Self.exporter(server.baseURL), clock: clock, registry: registry)
            let tracer = Tracer(processor: processor)
            async let loop: Void = processor.run()
            for index in 0..<10 { tracer.startSpan("first \(index)").end() }
            await clock.waitForSleeper(at: clock.now.advanced(by: .seconds(30)))
            let timing = Self.endSpans(1_000, with: tracer)
            #expect(timing.max < .milliseconds(500), "the slowest end() took \(timing.max)")
            #expect(timing.total < .seconds(2), "1,000 ends took \(timing.total)")
            #expect(processor.droppedCount(.queueFull) == 900)
            clock.advance(by: .seconds(30))
            // The second try is refused as well, and the third: the batch is dropped after its last try.
            await clock.waitForSleeper(at: clock.now.advanced(by: .seconds(30)))
            clock.advance(by: .seconds(30))
            #expect(await Self.exported { processor.droppedCount(.exportFailed) == 10 })
            #expect(receiver.requests.count >= 3)
            let shutdown = Task { await processor.shutdown(timeout: .seconds(1)) }
            await clock.waitForSleeper(at: clock.now.advanced(by: .seconds(1)))
            clock.advance(by: .seconds(1))
            await shutdown.value
            await loop
            let samples = ExpositionSamples(registry.exposition())
            let dropped = ["queue_full", "export_failed", "shutdown"].map {
                samples[#"resolvekit_telemetry_spans_dropped_total{reason="\#($0)"}"#] ?? 0
            }
            #expect(dropped[0] == 900 && dropped[1] >= 10)
            #expect(dropped.reduce(0, +) + Double(processor.exportedCount) == 1_010)
        }
    }

    @Test func aSlowEndpointDoesNotSlowTheCaller() async throws {
        let receiver = OTLPReceiver([OTLPReceiver.Reply(status: 200, delay: .seconds(10))])
        let server = try LoopbackHTTPServer.start(handler: receiver.handler)
        let clock = ManualClock()
        let registry = MetricsRegistry()
        let processor = try Self.processor(Self.exporter(server.baseURL), clock: clock, registry: registry)
        let tracer = Tracer(processor: processor)
        async let loop: Void = processor.run()
        for index in 0..<10 { tracer.startSpan("first \(index)").end() }
        #expect(await Self.exported { receiver.requests.count == 1 })
        let timing = Self.endSpans(1_000, with: tracer)
        #expect(processor.exportedCount == 0, "the first export is still waiting for its answer")
        #expect(timing.max < .milliseconds(500), "the slowest end() took \(timing.max)")
        #expect(timing.total < .seconds(2), "1,000 ends took \(timing.total)")
        #expect(processor.queuedCount == 100)
        #expect(processor.droppedCount(.queueFull) == 900)
        let shutdown = Task { await processor.shutdown(timeout: .seconds(1)) }
        await clock.waitForSleeper(at: clock.now.advanced(by: .seconds(1)))
        clock.advance(by: .seconds(1))
        await shutdown.value
        await server.stop()  // the export waiting for its answer ends now
        await loop
        #expect(processor.droppedCount(.shutdown) == 100)
        let samples = ExpositionSamples(registry.exposition())
        #expect(samples[#"resolvekit_telemetry_spans_dropped_total{reason="queue_full"}"#] == 900)
    }

    @Test func forceFlushExportsWithoutWaitingForTheSchedule() async throws {
        let receiver = OTLPReceiver()
        try await LoopbackHTTPServer.withServer(handler: receiver.handler) { server in
            let clock = ManualClock()
            let processor = try Self.processor(Self.exporter(server.baseURL), clock: clock)
            async let loop: Void = processor.run()
            let tracer = Tracer(processor: processor)
            for index in 0..<3 { tracer.startSpan("span \(index)").end() }
            #expect(await processor.forceFlush(timeout: .seconds(5)))
            #expect(processor.exportedCount == 3)
            #expect(receiver.requests.count == 1)
            #expect(await processor.forceFlush(timeout: .seconds(5)), "nothing queued: done at once")
            await processor.shutdown(timeout: .seconds(1))
            await loop
            tracer.startSpan("after").end()
            #expect(processor.droppedCount(.shutdown) == 1)
        }
    }

    /// A batch someone waits for (a flush, shutdown) is exported urgently, at normal priority; a full batch on its
    /// own in the background.
    @Test func flushesAndShutdownExportUrgentlyAndFullBatchesDoNot() async throws {
        let exporter = UrgencyNotingExporter()
        let processor = try Self.batchesOfTwo(exporter)
        async let loop: Void = processor.run()
        let tracer = Tracer(processor: processor)
        for index in 0..<2 { tracer.startSpan("full \(index)").end() }
        #expect(await pollUntil { exporter.batches.count == 1 })
        tracer.startSpan("flushed").end()
        #expect(await processor.forceFlush(timeout: .seconds(30)))
        tracer.startSpan("at shutdown").end()
        await processor.shutdown(timeout: .seconds(30))
        await loop
        #expect(exporter.batches.map(\.count) == [2, 1, 1])
        #expect(exporter.batches.map(\.urgently) == [false, true, true])
    }

    @Test func aRefusedBatchIsDroppedNotRetried() async throws {
        let receiver = OTLPReceiver([OTLPReceiver.Reply(status: 400)])
        try await LoopbackHTTPServer.withServer(handler: receiver.handler) { server in
            let clock = ManualClock()
            let processor = try Self.processor(Self.exporter(server.baseURL), clock: clock, batch: 1)
            async let loop: Void = processor.run()
            Tracer(processor: processor).startSpan("refused").end()
            #expect(await Self.exported { processor.droppedCount(.exportFailed) == 1 })
            #expect(receiver.requests.count == 1)
            await processor.shutdown(timeout: .seconds(1))
            await loop
        }
    }

    /// An endpoint's answers, in protobuf and in JSON: a partial success rejecting two spans, and a refusal's
    /// `google.rpc.Status`.
    static let answers: [(partial: OTLPReceiver.Reply, refusal: OTLPReceiver.Reply)] = [
        (
            // ExportTraceServiceResponse { partial_success { rejected_spans: 2, error_message: "span too big" } }
            OTLPReceiver.Reply(
                status: 200,
                body: ("application/x-protobuf", [0x0A, 0x10, 0x08, 0x02, 0x12, 0x0C] + "span too big".utf8)),
            // google.rpc.Status { code: 3, message: "no resource" }
            OTLPReceiver.Reply(
                status: 400, body: ("application/x-protobuf", [0x08, 0x03, 0x12, 0x0B] + "no resource".utf8))
        ),
        (
            OTLPReceiver.Reply(
                status: 200,
                body: (
                    "application/json",
                    Array(#"{"partialSuccess":{"rejectedSpans":"2","errorMessage":"span too big"}}"#.utf8)
                )),
            OTLPReceiver.Reply(
                status: 400, body: ("application/json", Array(#"{"code":3,"message":"no resource"}"#.utf8)))
        ),
    ]

    @Test(arguments: 0..<answers.count)
    func aPartialSuccessDropsTheRejectedSpansAndSaysWhyAsARefusalDoes(answer: Int) async throws {
        let (partial, refusal) = Self.answers[answer]
        let receiver = OTLPReceiver([partial, refusal])
        let warnings = Mutex<[ResolveKitLogger.Record]>([])
        let logger = ResolveKitLogger(label: "test", minimumLevel: .warning) { record in
            warnings.withLock { $0.append(record) }
        }
        try await LoopbackHTTPServer.withServer(handler: receiver.handler) { server in
            let registry = MetricsRegistry()
            let exporter = OTLPSpanExporter(
                endpoint: server.baseURL + "/v1/traces", resource: Self.resource, transport: try PlainHTTPTransport(),
                logger: logger)
            let processor = try Self.processor(exporter, clock: ManualClock(), batch: 3, registry: registry)
            async let loop: Void = processor.run()
            let tracer = Tracer(processor: processor)
            for index in 0..<3 { tracer.startSpan("span \(index)").end() }
            #expect(await Self.exported { processor.droppedCount(.rejected) == 2 })
            #expect(processor.exportedCount == 1)
            tracer.startSpan("refused").end()
            #expect(await processor.forceFlush(timeout: .seconds(5)))
            #expect(processor.droppedCount(.exportFailed) == 1)
            #expect(receiver.requests.count == 2, "neither is sent again")
            let samples = ExpositionSamples(registry.exposition())
            #expect(samples[#"resolvekit_telemetry_spans_dropped_total{reason="rejected"}"#] == 2)
            #expect(samples["resolvekit_telemetry_spans_exported_total"] == 1)
            let said = warnings.withLock { $0.map { "\($0.message): \($0.metadata["message"] ?? "")" } }
            #expect(
                said == [
                    "OTLP endpoint rejected 2 of 3 spans: span too big",
                    "OTLP endpoint refused a batch of 1 spans: no resource",
                ])
            await processor.shutdown(timeout: .seconds(1))
            await loop
        }
    }

    /// Ends `count` spans and measures each `end()`.
    static func endSpans(_ count: Int, with tracer: Tracer) -> (max: Duration, total: Duration) {
        let clock = ContinuousClock()
        var slowest = Duration.zero
        var total = Duration.zero
        for index in 0..<count {
            let span = tracer.startSpan("span \(index)")
            let start = clock.now
            span.end()
            let took = clock.now - start
            slowest = max(slowest, took)
            total += took
        }
        return (slowest, total)
    }
}

/// An exporter that notes each batch's size and urgency, and takes it.
private final class UrgencyNotingExporter: SpanExporter {
    private let noted = Mutex<[(count: Int, urgently: Bool)]>([])
    var batches: [(count: Int, urgently: Bool)] { noted.withLock { $0 } }

    func export(_ spans: [FinishedSpan]) async -> SpanExportResult {
        await export(spans, urgently: false)
    }

    func export(_ spans: [FinishedSpan], urgently: Bool) async -> SpanExportResult {
        noted.withLock { $0.append((spans.count, urgently)) }
        return .success
    }

    func shutdown() async {}
}
