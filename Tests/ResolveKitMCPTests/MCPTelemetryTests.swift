import Foundation
import ResolveKit
import ResolveKitHTTP
import ResolveKitTelemetry
import ResolveKitTesting
import Testing

@testable import ResolveKitMCP

/// Requests counted by method and error, and `tools/call` traced under the client's `params._meta.traceparent`,
/// in the server and in the built `rk-mcp`.
@Suite(.timeLimit(.minutes(1)))
struct MCPTelemetryTests {
    static let clientTrace = "4bf92f3577b34da6a3ce929d0e0e4736"
    static let clientSpan = "00f067aa0ba902b7"
    static let meta: JSONValue = ["traceparent": .string("00-\(clientTrace)-\(clientSpan)-01")]

    /// The value of the sample `name` in Prometheus text, if it is there.
    static func sample(_ name: String, in text: String) -> Double? {
        text.split(separator: "\n").first { $0.hasPrefix(name + " ") }.flatMap { Double($0.dropFirst(name.count + 1)) }
    }

    @Test func aToolsCallIsAServerSpanInTheClientsTraceWithTheCallUnderItAndEveryRequestIsCounted() async throws {
        let collector = OTLPTraceCollector()
        try await LoopbackHTTPServer.withServer(handler: collector.handler) { receiver in
            let telemetry = try Telemetry(
                configuration: TelemetryConfiguration(
                    resource: TelemetryResource(serviceName: "mcp-test"),
                    traces: .init(endpoint: receiver.baseURL + "/v1/traces")),
                transport: PlainHTTPTransport())
            let exporting = Task { await telemetry.run() }
            let server = try MCPServer(
                configuration: .init(
                    functions: MCPTestFunctions.all, approver: PolicyApprover(rules: ["set_lights": .allow]),
                    telemetry: telemetry))
            let pipes = MCPPipes.start(server)
            try await pipes.client.initialize()
            pipes.client.request(
                1, "tools/call", ["name": "set_lights", "arguments": ["room": "hall", "on": true], "_meta": Self.meta])
            #expect(try await pipes.client.response(1)["result"]?["isError"] == false)
            pipes.client.request(2, "tools/call", ["name": "broken"])
            #expect(try await pipes.client.response(2)["result"]?["isError"] == true)
            pipes.client.request(3, "tools/call", ["name": "no_such_tool"])
            #expect(try await pipes.client.response(3)["error"]?["code"] == -32602)
            pipes.client.request(4, "ping")
            _ = try await pipes.client.response(4)
            pipes.client.closeOutput()
            await pipes.serving.value
            #expect(await telemetry.flush(timeout: .seconds(30)))

            let spans = collector.spans.filter { $0.traceID == Self.clientTrace }
            let request = try #require(spans.first { $0.name == "tools/call set_lights" })
            #expect(request.parentSpanID == Self.clientSpan)
            #expect(request.kind == 2)
            #expect(request.attributes["mcp.method.name"] == "tools/call")
            #expect(request.attributes["jsonrpc.request.id"] == "1")
            #expect(request.attributes["mcp.protocol.version"] == "2025-11-25")
            #expect(request.attributes["gen_ai.tool.name"] == "set_lights")
            let call = try #require(spans.first { $0.name == "execute_tool set_lights" })
            #expect(call.parentSpanID == request.spanID)
            #expect(spans.first { $0.name == "approval set_lights" }?.parentSpanID == call.spanID)
            #expect(spans.first { $0.name == "run set_lights" }?.parentSpanID == call.spanID)
            #expect(spans.count == 4, "the client's trace holds its call and nothing else")
            let broken = try #require(collector.spans.first { $0.name == "tools/call broken" })
            #expect(broken.attributes["error.type"] == "tool_error")
            #expect(broken.parentSpanID == nil)

            let text = String(decoding: telemetry.registry.exposition(), as: UTF8.self)
            let duration = "mcp_server_operation_duration_seconds_count"
            #expect(Self.sample(#"\#(duration){mcp_method_name="tools/call"}"#, in: text) == 1)
            #expect(Self.sample(#"\#(duration){mcp_method_name="tools/call",error_type="tool_error"}"#, in: text) == 1)
            #expect(Self.sample(#"\#(duration){mcp_method_name="tools/call",error_type="-32602"}"#, in: text) == 1)
            #expect(Self.sample(#"\#(duration){mcp_method_name="ping"}"#, in: text) == 1)
            #expect(Self.sample(#"\#(duration){mcp_method_name="initialize"}"#, in: text) == 1)
            let calls = "resolvekit_tool_calls_total"
            #expect(
                Self.sample(#"\#(calls){function="set_lights",outcome="success",decided_by="policy"}"#, in: text) == 1)
            #expect(Self.sample(#"\#(calls){function="broken",outcome="error",decided_by="automatic"}"#, in: text) == 1)
            await telemetry.shutdown(timeout: .seconds(2))
            await exporting.value
        }
    }

    @Test func rkMCPServesItsMetricsAndExportsItsSpansWhenItsClientLeaves() async throws {
        let collector = OTLPTraceCollector()
        try await LoopbackHTTPServer.withServer(handler: collector.handler) { receiver in
            let free = try LoopbackHTTPServer.start { _ in LoopbackResponse(status: 404) }
            let port = free.port
            await free.stop()
            // Only the export at exit can deliver the spans: the schedule would wait a minute.
            let server = try MCPBinaryTests.Running.start(
                ["--approve", "all", "--metrics-listen", "127.0.0.1:\(port)"],
                environment: ["OTEL_EXPORTER_OTLP_ENDPOINT": receiver.baseURL, "OTEL_BSP_SCHEDULE_DELAY": "60000"])
            try await server.client.initialize()
            server.client.request(
                "host", "tools/call", ["name": "get_host_status", "arguments": [:], "_meta": Self.meta])
            #expect(try await server.client.response("host")["result"]?["isError"] == false)

            let http = HTTPClient()
            let scraped = try await http.send(HTTPRequest(url: "http://127.0.0.1:\(port)/metrics"))
            await http.shutdown()
            #expect(scraped.status == 200)
            let text = String(decoding: scraped.body, as: UTF8.self)
            #expect(
                Self.sample(#"mcp_server_operation_duration_seconds_count{mcp_method_name="tools/call"}"#, in: text)
                    == 1)
            #expect(
                Self.sample(
                    "resolvekit_tool_calls_total"
                        + #"{function="get_host_status",outcome="success",decided_by="automatic"}"#,
                    in: text) == 1)

            server.client.closeOutput()
            #expect(await server.exitStatus() == 0)
            let request = try #require(collector.spans.first { $0.name == "tools/call get_host_status" })
            #expect(request.traceID == Self.clientTrace)
            #expect(request.parentSpanID == Self.clientSpan)
            #expect(request.serviceName == "rk-mcp")
            #expect(
                collector.spans.contains {
                    $0.name == "execute_tool get_host_status" && $0.parentSpanID == request.spanID
                })
        }
    }
}
