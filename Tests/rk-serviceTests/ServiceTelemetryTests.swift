import Foundation
import ResolveKitCore
import ResolveKitHTTP
import ResolveKitTesting
import Testing

/// `--metrics-listen`, the trace of each request in the logs and in OTLP, and the export at SIGTERM, of the built
/// `rk-service`.
@Suite(.timeLimit(.minutes(1)))
struct ServiceTelemetryTests {
    static let callerTrace = "4bf92f3577b34da6a3ce929d0e0e4736"
    static let callerSpan = "00f067aa0ba902b7"
    static let message =
        #"{"id": "1", "message": "what time is it", "traceparent": "00-\#(callerTrace)-\#(callerSpan)-01"}"#

    /// The value of `key=` in a structured log line.
    static func field(_ key: String, in line: Substring) -> String? {
        line.split(separator: " ").first { $0.hasPrefix(key + "=") }.map { String($0.dropFirst(key.count + 1)) }
    }

    @Test func metricsListenServesThePrometheusTextOfTheCallsItRan() async throws {
        try await ServiceHarness.run { harness in
            let service = try harness.launch(["--metrics-listen", "127.0.0.1:0"])
            #expect(await service.waitFor(\.stderr) { $0.contains(#"msg="serving metrics""#) })
            let line = try #require(service.stderr.split(separator: "\n").first { $0.contains("serving metrics") })
            let address = try #require(Self.field("address", in: line))
            #expect(address.hasPrefix("127.0.0.1:") && address != "127.0.0.1:0")
            service.send(Self.message)
            #expect(try await service.answer(id: "1")["status"] as? String == "ok")

            let client = HTTPClient()
            let response = try await client.send(HTTPRequest(url: "http://\(address)/metrics"), maxBodyBytes: 1 << 20)
            await client.shutdown()
            #expect(response.status == 200)
            #expect(response.headers["Content-Type"]?.hasPrefix("text/plain; version=0.0.4") == true)
            let text = String(decoding: response.body, as: UTF8.self)
            #expect(
                text.contains(
                    "resolvekit_tool_calls_total"
                        + #"{function="get_local_time",outcome="success",decided_by="automatic"} 1"#
                ))
            #expect(text.contains(#"resolvekit_turns_total{ending="answered"} 1"#))
            #expect(text.contains("resolvekit_sessions_open 1"))
            #expect(text.contains("resolvekit_event_streams_connected 1"))
            #expect(text.contains("process_resident_memory_bytes "))
            service.signal(SIGTERM)
            #expect(await service.exitStatus() == 0)
        }
    }

    @Test func theLogLinesOfARequestCarryTheCallersTraceAndItsSpansAreExportedAtSIGTERM() async throws {
        try await ServiceHarness.run { harness in
            let collector = OTLPTraceCollector()
            let service = try await LoopbackHTTPServer.withServer(handler: collector.handler) { receiver in
                // Only the export at shutdown can deliver the spans: the schedule would wait a minute.
                let service = try harness.launch(
                    ["--log-level", "debug"],
                    environment: ["OTEL_EXPORTER_OTLP_ENDPOINT": receiver.baseURL, "OTEL_BSP_SCHEDULE_DELAY": "60000"])
                service.send(Self.message)
                #expect(try await service.answer(id: "1")["status"] as? String == "ok")
                service.signal(SIGTERM)
                #expect(await service.exitStatus() == 0)
                return service
            }

            let lines = service.stderr.split(separator: "\n")
            for message in [#"msg="request started""#, #"msg="tool call completed""#, #"msg="request answered""#] {
                let line = try #require(lines.first { $0.contains(message) })
                #expect(Self.field("trace_id", in: line) == Self.callerTrace, "\(line)")
            }
            let callLine = try #require(
                lines.first { $0.contains("label=resolvekit") && $0.contains("(get_local_time): completed") })
            #expect(Self.field("trace_id", in: callLine) == Self.callerTrace)
            #expect(!lines.contains { $0.contains("msg=\"connection active\"") && $0.contains("trace_id=") })

            let spans = collector.spans
            let request = try #require(spans.first { $0.name == "rk-service message" })
            #expect(request.traceID == Self.callerTrace)
            #expect(request.parentSpanID == Self.callerSpan)
            #expect(request.kind == 2)
            #expect(request.serviceName == "rk-service")
            let turn = try #require(spans.first { $0.name == "invoke_agent" })
            #expect(turn.parentSpanID == request.spanID)
            let call = try #require(spans.first { $0.name == "execute_tool get_local_time" })
            #expect(call.parentSpanID == turn.spanID)
            for message in [#"msg="tool call completed""#, "(get_local_time): completed"] {
                #expect(Self.field("span_id", in: try #require(lines.first { $0.contains(message) })) == call.spanID)
            }
            #expect(
                Self.field("span_id", in: try #require(lines.first { $0.contains(#"msg="request started""#) }))
                    == request.spanID)
        }
    }
}
