import Foundation
import ResolveKit
import ResolveKitChildProcess
import ResolveKitTelemetry
import ResolveKitTesting
import Synchronization
import Testing

@Suite(.timeLimit(.minutes(1)))
struct RuntimeTraceTests {
    static let hostTrace = "4bf92f3577b34da6a3ce929d0e0e4736"
    static let hostSpan = "00f067aa0ba902b7"
    static let hostContext = try! SpanContext(traceparent: "00-\(hostTrace)-\(hostSpan)-01", tracestate: "host=1")

    @Test(
        .enabled(
            if: ExternalProgram.opentelemetryProto.shouldRun,
            Comment(rawValue: ExternalProgram.opentelemetryProto.skipNote)))
    func aRealTurnWithTwoCallsDecodesAsOneTraceUnderTheHostsContext() async throws {
        let python = try ExternalProgram.opentelemetryProto.require()
        try await TelemetryHarness.run { harness in
            try await harness.withRuntime(harness.configuration()) { runtime in
                let result = try await runtime.ask("two things please", parent: Self.hostContext)
                #expect(result.toolCalls.map(\.status) == [.completed, .cancelled(reason: "Denied by policy")])
                let usage = try #require(result.usage)
                _ = await harness.exportedSpans(trace: Self.hostTrace) { $0.count == 9 }
                let bodies = harness.collector.requests.map(\.body)
                let script = ProgramRunner.testsFolder.appending(path: "Scripts/decode_otlp_trace.py").path
                let folder = FileManager.default.temporaryDirectory.appending(path: "rk-trace-\(UUID().uuidString)")
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                defer { try? FileManager.default.removeItem(at: folder) }
                var paths: [String] = []
                for (index, body) in bodies.enumerated() {
                    let file = folder.appending(path: "export-\(index)")
                    try Data(body).write(to: file)
                    paths.append(file.path)
                }
                let output = try await ProgramRunner.run(
                    python,
                    [
                        script, "--runtime", "--trace", Self.hostTrace, "--parent", Self.hostSpan, "--service",
                        "runtime-telemetry-test", "--conversation", try #require(runtime.sessionID),
                        "--input-tokens", String(usage.promptTokens), "--output-tokens",
                        String(usage.completionTokens), "--approved", "set_lights:policy", "--declined",
                        "delete_file:policy",
                    ] + paths)
                #expect(output.termination.status == 0, "\(output.standardOutput)\(output.standardError)")
                #expect(output.standardOutput.contains("decoded 9 spans in trace \(Self.hostTrace)"))
            }
        }
    }

    @Test func theTurnsRequestsCarryItsTraceparentAndTheFunctionSeesItsRunSpan() async throws {
        try await TelemetryHarness.run { harness in
            try await harness.withRuntime(harness.configuration()) { runtime in
                let result = try await runtime.ask("weather please", parent: Self.hostContext)
                let callID = try #require(result.toolCalls.first?.id)
                let spans = await harness.exportedSpans(trace: Self.hostTrace) { $0.count == 5 }
                let turn = try #require(spans.first { $0.name == "invoke_agent" })
                let call = try #require(spans.first { $0.name == "execute_tool get_weather" })
                let run = try #require(spans.first { $0.name == "run get_weather" })
                #expect(call.parentSpanID == turn.spanID)
                #expect(run.parentSpanID == call.spanID)
                #expect(call.attributes["gen_ai.tool.call.id"] == callID.rawValue)
                #expect(call.attributes["resolvekit.approval.decided_by"] == "automatic")
                #expect(result.toolCalls.first?.spanContext?.spanID.hexString == call.spanID, "the row names its span")
                #expect(result.toolCalls.first?.spanContext?.traceID.hexString == Self.hostTrace)
                let seen = TelemetryTestFunctions.seenContexts.withLock { $0[callID.rawValue] }
                #expect(seen?.traceID.hexString == Self.hostTrace)
                #expect(seen?.spanID.hexString == run.spanID)

                // Each request of the turn is a client span whose context the request carried.
                let posts = spans.filter { $0.name == "POST" }
                let message = try #require(posts.first { $0.parentSpanID == turn.spanID })
                let delivery = try #require(posts.first { $0.parentSpanID == call.spanID })
                let sent = harness.requests.filter { $0.traceparent?.contains(Self.hostTrace) == true }
                #expect(sent.map(\.path).contains { $0.hasSuffix("/messages") })
                #expect(
                    sent.first { $0.path.hasSuffix("/messages") }?.traceparent
                        == "00-\(Self.hostTrace)-\(message.spanID)-01")
                #expect(
                    sent.first { $0.path.hasSuffix("/tool-results") }?.traceparent
                        == "00-\(Self.hostTrace)-\(delivery.spanID)-01")
                #expect(message.attributes["http.request.method"] == "POST")
                #expect(message.attributes["http.response.status_code"] == "202")
                #expect(message.attributes["url.full"]?.hasPrefix(harness.server.baseURL) == true)
            }
        }
    }

    @Test func withoutTelemetryTheHostsContextStillReachesTheBackendAndTheFunction() async throws {
        try await TelemetryHarness.run { harness in
            try await harness.withRuntime(harness.configuration(recording: false)) { runtime in
                let result = try await runtime.ask("weather please", parent: Self.hostContext)
                let callID = try #require(result.toolCalls.first?.id)
                #expect(TelemetryTestFunctions.seenContexts.withLock { $0[callID.rawValue] } == Self.hostContext)
                #expect(result.toolCalls.first?.spanContext == Self.hostContext)
                let carried = harness.requests.filter { $0.traceparent != nil }
                #expect(Set(carried.map(\.traceparent)) == [Self.hostContext.traceparent])
                #expect(
                    Set(carried.map(\.path).map { $0.split(separator: "/").last.map(String.init) ?? "" })
                        == ["messages", "tool-results"])
                #expect(await harness.exportedSpans().isEmpty)
            }
        }
    }

    /// A call's line names the call's span; other lines of the turn, the turn's.
    @Test func logLinesInsideATurnCarryItsTraceAndAFunctionsLinesItsRunSpan() async throws {
        let records = Mutex<[ResolveKitLogger.Record]>([])
        let logger = ResolveKitLogger(label: "test", minimumLevel: .debug) { record in
            records.withLock { $0.append(record) }
        }
        try await TelemetryHarness.run { harness in
            try await harness.withRuntime(harness.configuration(logger: logger)) { runtime in
                _ = try await runtime.ask("weather please", parent: Self.hostContext)
                let spans = await harness.exportedSpans(trace: Self.hostTrace)
                let turn = try #require(spans.first { $0.name == "invoke_agent" })
                let call = try #require(spans.first { $0.name == "execute_tool get_weather" })
                let run = try #require(spans.first { $0.name == "run get_weather" })
                let lines = records.withLock { $0 }
                let callLine = try #require(lines.first { $0.message.contains("(get_weather): completed") })
                #expect(callLine.metadata["trace_id"] == Self.hostTrace)
                #expect(callLine.metadata["span_id"] == call.spanID)
                let resultLine = try #require(lines.first { $0.message.hasPrefix("Result of") })
                #expect(resultLine.metadata == ["trace_id": Self.hostTrace, "span_id": turn.spanID])
                let functionLine = try #require(lines.first { $0.message == "looking at the sky" })
                #expect(functionLine.metadata == ["trace_id": Self.hostTrace, "span_id": run.spanID])
                let setup = try #require(lines.first { $0.message.hasPrefix("Registered") })
                #expect(setup.metadata["trace_id"] == nil, "a line outside any turn carries no trace")
            }
        }
    }

    @Test func aTurnWithoutAHostContextStartsATraceOfItsOwn() async throws {
        try await TelemetryHarness.run { harness in
            try await harness.withRuntime(harness.configuration()) { runtime in
                _ = try await runtime.ask("weather please")
                let spans = await harness.exportedSpans { spans in
                    spans.first { $0.name == "invoke_agent" }.map { turn in
                        spans.filter { $0.traceID == turn.traceID }.count == 5
                    } ?? false
                }
                let turn = try #require(spans.first { $0.name == "invoke_agent" })
                #expect(turn.parentSpanID == nil)
                #expect(turn.traceID != Self.hostTrace)
                #expect(
                    spans.filter { $0.traceID == turn.traceID }.map(\.name).sorted()
                        == ["POST", "POST", "execute_tool get_weather", "invoke_agent", "run get_weather"])
                #expect(turn.attributes["resolvekit.turn.ending"] == "answered")
                #expect(turn.attributes["gen_ai.conversation.id"] == runtime.sessionID)
            }
        }
    }
}
