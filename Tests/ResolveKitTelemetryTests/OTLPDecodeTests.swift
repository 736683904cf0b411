import Foundation
import ResolveKitChildProcess
import ResolveKitCore
import ResolveKitTelemetry
import ResolveKitTesting
import Testing

@Suite(.timeLimit(.minutes(1)))
struct OTLPDecodeTests {
    static let hostTraceparent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"

    /// One turn with two calls, spanned the way the runtime will: the host's `traceparent` passed into `ask`, the
    /// turn, each call with its approval (one approved and run, its result posted; one declined).
    static func recordTurn(with tracer: Tracer) {
        let turn = tracer.startTurn(
            sessionID: "session-1", requestID: "request-1",
            parent: .incoming(traceparent: hostTraceparent, tracestate: "host=1"))
        let approved = tracer.startToolCall(function: "get_weather", callID: "call-1", parent: .span(turn))
        let declined = tracer.startToolCall(function: "delete_file", callID: "call-2", parent: .span(turn))
        let approval = tracer.startApproval(function: "get_weather", call: approved)
        let refusal = tracer.startApproval(function: "delete_file", call: declined)
        approval.finishApproval(decidedBy: .person, approved: true)
        refusal.finishApproval(decidedBy: .policy, approved: false)
        declined.finishToolCall(outcome: .declined)
        let run = tracer.startFunctionRun(function: "get_weather", call: approved)
        run.end()
        let post = tracer.startHTTPRequest(
            method: "POST", url: "https://agent.example.com/v1/sessions/session-1/tool-results",
            parent: .span(approved))
        post.finishHTTPRequest(status: 200)
        approved.finishToolCall(outcome: .success)
        turn.finishTurn(ending: .answered, turnID: "turn-1", usage: TokenUsage(promptTokens: 616, completionTokens: 15))
    }

    @Test(
        .enabled(
            if: ExternalProgram.opentelemetryProto.shouldRun,
            Comment(rawValue: ExternalProgram.opentelemetryProto.skipNote)), arguments: [OTLPEncoding.protobuf, .json])
    func aTurnWithTwoCallsDecodesAsAnExportTraceServiceRequest(encoding: OTLPEncoding) async throws {
        let python = try ExternalProgram.opentelemetryProto.require()
        let receiver = OTLPReceiver()
        try await LoopbackHTTPServer.withServer(handler: receiver.handler) { server in
            let exporter = OTLPSpanExporter(
                endpoint: server.baseURL + "/v1/traces", encoding: encoding,
                resource: TelemetryResource(serviceName: "otlp-decode-test"), transport: try PlainHTTPTransport())
            let processor = try BatchSpanProcessor(exporter: exporter)
            async let loop: Void = processor.run()
            Self.recordTurn(with: Tracer(processor: processor))
            #expect(await processor.forceFlush(timeout: .seconds(30)))
            await processor.shutdown(timeout: .seconds(5))
            await loop
            #expect(receiver.requests.count == 1)
            #expect(receiver.requests.first?.header("Content-Type") == encoding.contentType)
            let body = try #require(receiver.requests.first?.body)
            let script = ProgramRunner.testsFolder.appending(path: "Scripts/decode_otlp_trace.py").path
            let output = try await ProgramRunner.withTemporaryFile(named: "trace", body) { path in
                try await ProgramRunner.run(
                    python,
                    [
                        script, "--trace", "4bf92f3577b34da6a3ce929d0e0e4736", "--parent", "00f067aa0ba902b7",
                        "--service", "otlp-decode-test", "--conversation", "session-1", "--input-tokens", "616",
                        "--output-tokens", "15", "--approved", "get_weather:call-1:person", "--declined",
                        "delete_file:call-2:policy", path,
                    ])
            }
            #expect(output.termination.status == 0, "\(output.standardOutput)\(output.standardError)")
            #expect(output.standardOutput.contains("decoded 7 spans in trace 4bf92f3577b34da6a3ce929d0e0e4736"))
        }
    }

    @Test func theJSONFollowsOTLPsRulesForIdsEnumsAndIntegers() throws {
        let collector = SpanCollector()
        Self.recordTurn(with: Tracer(processor: collector, ids: IDGenerator(seed: 1), time: .stepping(from: 5)))
        let json = String(
            decoding: OTLPTraceEncoding.encode(
                collector.finished, resource: TelemetryResource(serviceName: "x"), as: .json),
            as: UTF8.self)
        #expect(
            json.hasPrefix(
                #"{"resourceSpans":[{"resource":{"attributes":[{"key":"service.name","value":{"stringValue":"x"}}"#))
        #expect(json.contains(#""traceId":"4bf92f3577b34da6a3ce929d0e0e4736""#))
        #expect(json.contains(#""parentSpanId":"00f067aa0ba902b7""#))
        #expect(json.contains(#""traceState":"host=1""#))
        #expect(json.contains(#""kind":3"#), "client spans as the enum's number")
        #expect(json.contains(#""startTimeUnixNano":""#), "64-bit integers as strings")
        #expect(json.contains(#"{"key":"gen_ai.usage.input_tokens","value":{"intValue":"616"}}"#))
        #expect(json.contains(#""status":{"message":"The call ended: declined","code":2}"#))
        #expect(!json.contains("base64"))
    }

    static let integers: [Int64] = [0, 7, -42, 1_000_000, .max, .min]

    /// One span at the edges: ids with high bits, times at both ends of 64 bits, ``integers`` as `i0`, `i1`, …,
    /// then `more` attributes.
    static func edgeSpan(_ more: [SpanAttribute] = []) -> [FinishedSpan] {
        let collector = SpanCollector()
        let tracer = Tracer(processor: collector, ids: IDGenerator(seed: 1), time: .stepping(from: 5))
        let parent = SpanContext(traceID: TraceID(high: 1, low: 0xffff_ffff_ffff_fff0), spanID: SpanID(rawValue: 10))
        let span = tracer.begin(parent: .context(parent), startTime: 0)
        let numbered = integers.enumerated().map { SpanAttribute("i\($0)", .int($1)) }
        tracer.end(span, name: "n", attributes: numbered + more, endTime: .max)
        return collector.finished
    }

    /// Ids, timestamps and integers are written straight into the bytes: every digit, both signs, both ends.
    @Test func integersAndIdsAreWrittenInFull() throws {
        let integers = Self.integers
        let json = String(
            decoding: OTLPTraceEncoding.encode(
                Self.edgeSpan(), resource: TelemetryResource(serviceName: "x"), as: .json),
            as: UTF8.self)
        #expect(json.contains(#""traceId":"0000000000000001fffffffffffffff0""#))
        #expect(json.contains(#""parentSpanId":"000000000000000a""#))
        #expect(json.contains(#""startTimeUnixNano":"0","endTimeUnixNano":"18446744073709551615""#))
        for (index, integer) in integers.enumerated() {
            #expect(json.contains(#"{"key":"i\#(index)","value":{"intValue":"\#(integer)"}}"#))
        }
    }

    /// The same in protobuf, read back by the test collector: fixed64 times at both ends, negative integers in ten
    /// bytes, and lengths of one, two and three bytes (an attribute of 20,000 bytes).
    @Test func protobufCarriesIntegersIdsAndLongTextsWhole() throws {
        let long = String(repeating: "é", count: 10_000)
        let spans = Self.edgeSpan([
            SpanAttribute("long", .string(long)), SpanAttribute("flag", .bool(false)),
            SpanAttribute("ratio", .double(0.25)),
        ])
        let body = OTLPTraceEncoding.encode(spans, resource: TelemetryResource(serviceName: "x"), as: .protobuf)
        let read = try #require(OTLPTraceCollector.spans(in: body).first)
        #expect(read.traceID == "0000000000000001fffffffffffffff0")
        #expect(read.parentSpanID == "000000000000000a")
        #expect(read.startTimeUnixNano == 0 && read.endTimeUnixNano == .max)
        #expect(read.serviceName == "x")
        for (index, integer) in Self.integers.enumerated() { #expect(read.attributes["i\(index)"] == "\(integer)") }
        #expect(read.attributes["long"] == long)
        #expect(read.attributes["flag"] == "false" && read.attributes["ratio"] == "0.25")
        let json = OTLPTraceEncoding.encode(spans, resource: TelemetryResource(serviceName: "x"), as: .json)
        #expect(body.count < json.count)
    }
}
