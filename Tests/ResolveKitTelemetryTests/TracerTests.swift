import ResolveKitCore
import ResolveKitTelemetry
import Testing

struct TracerTests {
    let collector = SpanCollector()
    let tracer: Tracer

    init() {
        tracer = Tracer(processor: collector, ids: IDGenerator(seed: 7), time: .stepping(from: 1_000))
    }

    @Test func idsAreValidAndDistinct() {
        let ids = IDGenerator(seed: 0)
        var seen: Set<UInt64> = []
        for _ in 0..<10_000 {
            let value = ids.next()
            #expect(value != 0)
            seen.insert(value)
        }
        #expect(seen.count == 10_000)
        #expect(IDGenerator.random.traceID().isValid)
        #expect(IDGenerator(seed: 3).traceID() == IDGenerator(seed: 3).traceID())
    }

    @Test func aChildSharesItsParentsTraceAndNamesItsParent() {
        let turn = tracer.startSpan("turn")
        let call = tracer.startSpan("call", parent: .span(turn))
        call.end()
        turn.end()
        let (parent, child) = (collector.named("turn")!, collector.named("call")!)
        #expect(parent.parentSpanID == nil)
        #expect(child.context.traceID == parent.context.traceID)
        #expect(child.parentSpanID == parent.context.spanID)
        #expect(child.context.spanID != parent.context.spanID)
        #expect(child.startTimeUnixNano > parent.startTimeUnixNano)
        #expect(child.endTimeUnixNano < parent.endTimeUnixNano)
    }

    @Test func aSpanUnderAnIncomingTraceparentContinuesThatTrace() throws {
        let incoming = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"
        let span = tracer.startSpan(
            "tools/call", kind: .server, parent: .incoming(traceparent: incoming, tracestate: "vendor=x"))
        #expect(span.context.traceID.hexString == "0af7651916cd43dd8448eb211c80319c")
        #expect(span.parentSpanID?.hexString == "b7ad6b7169203331")
        #expect(span.parentIsRemote)
        #expect(span.context.tracestate == "vendor=x")
        #expect(!span.context.isRemote)
        span.end()
        #expect(collector.finished.first?.parentIsRemote == true)
    }

    @Test func aMalformedIncomingTraceparentStartsANewTrace() {
        let span = tracer.startSpan("x", parent: .incoming(traceparent: "00-garbage"))
        #expect(span.parentSpanID == nil)
        #expect(span.context.isValid)
    }

    @Test func aParentThatDidNotSampleIsFollowedAndItsSpansStillPropagate() throws {
        let incoming = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-00"
        let span = tracer.startSpan("x", parent: .incoming(traceparent: incoming))
        #expect(!span.isRecording)
        #expect(!span.context.isSampled)
        #expect(span.context.traceID.hexString == "0af7651916cd43dd8448eb211c80319c")
        span.setAttribute("k", "v")
        span.end()
        #expect(collector.finished.isEmpty)
    }

    @Test func aTracerWithoutProcessorRecordsNothingButPassesTheCallersFlagOn() throws {
        let sampled = try SpanContext(traceparent: "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01")
        let span = Tracer.disabled.startSpan("x", parent: .context(sampled))
        #expect(!span.isRecording)
        #expect(span.context.isSampled)
        #expect(span.context.traceID == sampled.traceID)
        #expect(!Tracer.disabled.startSpan("root").context.isSampled)
    }

    @Test func attributesEventsAndStatusAreKeptUntilTheEndAndNotAfter() {
        let span = tracer.startSpan("x", attributes: [SpanAttribute("a", 1)])
        span.setAttribute("a", 2)
        span.setAttribute("b", "text")
        span.addEvent("decided", attributes: [SpanAttribute("by", "policy")])
        span.recordError(type: "timeout")
        span.setStatus(.ok)
        span.setStatus(.error(description: "later"))
        span.updateName("renamed")
        span.end()
        span.setAttribute("c", true)
        span.end()
        #expect(collector.finished.count == 1)
        let finished = collector.finished[0]
        #expect(finished.name == "renamed")
        #expect(finished.attribute("a") == .int(2))
        #expect(finished.attribute("b") == .string("text"))
        #expect(finished.attribute("error.type") == .string("timeout"))
        #expect(finished.attribute("c") == nil)
        #expect(finished.events.map(\.name) == ["decided"])
        #expect(finished.status == .ok, "ok is final")
    }

    @Test func attributesAndEventsBeyondTheLimitsAreCounted() {
        let tracer = Tracer(processor: collector, limits: SpanLimits(maxAttributes: 2, maxEvents: 1))
        let span = tracer.startSpan("x")
        for index in 0..<5 { span.setAttribute("k\(index)", .int(Int64(index))) }
        span.addEvent("one")
        span.addEvent("two")
        span.end()
        let finished = collector.finished[0]
        #expect(finished.attributes.count == 2)
        #expect(finished.droppedAttributesCount == 3)
        #expect(finished.droppedEventsCount == 1)
    }

    @Test(arguments: [
        (Sampler.alwaysOn, nil as String?, true),
        (.alwaysOff, nil, false),
        (.alwaysOff, "01", false),
        (.parentBased(root: .alwaysOff), nil, false),
        (.parentBased(root: .alwaysOff), "01", true),
        (.parentBased(root: .alwaysOn), "00", false),
        (.traceIDRatio(1), nil, true),
        (.traceIDRatio(0), nil, false),
        (.traceIDRatio(0), "01", false),
    ])
    func samplersDecideAsTheSpecificationSays(sampler: Sampler, parentFlags: String?, sampled: Bool) {
        let parent = parentFlags.flatMap {
            try? SpanContext(traceparent: "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-\($0)")
        }
        #expect(sampler.shouldSample(traceID: TraceID(high: 1, low: 2), parent: parent) == sampled)
    }

    @Test func aRatioSamplerKeepsAboutItsShareDecidedByTheTraceID() {
        let ids = IDGenerator(seed: 11)
        let sampler = Sampler.traceIDRatio(0.25)
        let traces = (0..<20_000).map { _ in ids.traceID() }
        let kept = traces.filter { sampler.shouldSample(traceID: $0, parent: nil) }.count
        #expect((4_500...5_500).contains(kept))
        #expect(
            traces.allSatisfy {
                sampler.shouldSample(traceID: $0, parent: nil) == sampler.shouldSample(traceID: $0, parent: nil)
            })
        #expect(sampler.description == "TraceIdRatioBased{0.25}")
    }
}
