import Foundation
import Synchronization
import ResolveKit
import Testing

@testable import ResolveKitMCP

@Suite(.timeLimit(.minutes(1)))
struct MCPLifecycleTests {
    static func server(
        approver: any ToolApprover = DenyAllApprover(), pageSize: Int = 100, maxMessageBytes: Int = 4 << 20
    ) throws -> MCPServer {
        try MCPServer(
            configuration: .init(
                functions: MCPTestFunctions.all, approver: approver, name: "test-server", version: "9.9.9",
                instructions: "Use answer for the answer.", pageSize: pageSize, maxMessageBytes: maxMessageBytes))
    }

    @Test(arguments: [
        ("2025-11-25", "2025-11-25"), ("2025-06-18", "2025-06-18"), ("2025-03-26", "2025-03-26"),
        ("2024-11-05", "2025-11-25"), ("2099-01-01", "2025-11-25"),
    ])
    func initializeAgreesOnTheClientsRevisionOrOffersTheNewest(requested: String, agreed: String) async throws {
        let pipes = MCPPipes.start(try Self.server())
        let answer = try await pipes.client.initialize(requested)
        #expect(answer["result"]?["protocolVersion"] == JSONValue.string(agreed))
        #expect(answer["result"]?["serverInfo"] == ["name": "test-server", "version": "9.9.9"])
        #expect(answer["result"]?["capabilities"] == ["tools": ["listChanged": false], "logging": [:]])
        #expect(answer["result"]?["instructions"] == "Use answer for the answer.")
        pipes.client.closeOutput()
        await pipes.serving.value
    }

    @Test func requestsBeforeInitializeAreRefusedButPingIsAnswered() async throws {
        let pipes = MCPPipes.start(try Self.server())
        pipes.client.request(1, "tools/list")
        pipes.client.request(2, "ping")
        #expect(try await pipes.client.response(1)["error"]?["code"] == -32600)
        #expect(try await pipes.client.response(2)["result"] == [:])
        try await pipes.client.initialize()
        pipes.client.request("again", "initialize", ["protocolVersion": "2025-11-25"])
        #expect(try await pipes.client.response("again")["error"]?["code"] == -32600)
        pipes.client.request(3, "initialize", [:])
        #expect(try await pipes.client.response(3)["error"]?["code"] == -32602)
        pipes.client.closeOutput()
        await pipes.serving.value
    }

    @Test(
        arguments: [
            ("{not json", -32700, nil),
            ("[1, 2]", -32600, nil),
            (#"{"id": 1, "method": "ping"}"#, -32600, JSONValue(1)),
            (#"{"jsonrpc": "2.0", "id": true, "method": "ping"}"#, -32600, nil),
            (#"{"jsonrpc": "2.0", "id": 5}"#, -32600, JSONValue(5)),
            (#"{"jsonrpc": "2.0", "id": 6, "method": "ping", "params": [1]}"#, -32602, JSONValue(6)),
            (#"{"jsonrpc": "2.0", "id": 7, "method": "resources/list"}"#, -32601, JSONValue(7)),
            // JSON-RPC: params must be structured; a string makes the request invalid (found by the fuzzer).
            (#"{"jsonrpc": "2.0", "id": 8, "method": "ping", "params": "x"}"#, -32600, JSONValue(8)),
        ] as [(String, Int, JSONValue?)])
    func malformedLinesGetTheirJSONRPCErrorAndTheServerGoesOn(line: String, code: Int, id: JSONValue?) async throws {
        let pipes = MCPPipes.start(try Self.server())
        try await pipes.client.initialize()
        pipes.client.send(line)
        let error = await pipes.client.waitFor { $0["error"] != nil }
        #expect(error?["error"]?["code"] == JSONValue.number(Double(code)))
        #expect(error?["id"] == (id ?? .null))
        pipes.client.request("after", "ping")
        #expect(try await pipes.client.response("after")["result"] == [:])
        pipes.client.closeOutput()
        await pipes.serving.value
    }

    @Test func unknownNotificationsAndResponsesAreIgnored() async throws {
        let pipes = MCPPipes.start(try Self.server())
        try await pipes.client.initialize()
        pipes.client.notify("notifications/whatever", ["x": 1])
        pipes.client.send(#"{"jsonrpc": "2.0", "id": "server-1", "result": {}}"#)
        pipes.client.request("p", "ping")
        _ = try await pipes.client.response("p")
        #expect(pipes.client.messages.count == 2)
        pipes.client.closeOutput()
        await pipes.serving.value
    }

    /// Found by the MCPMessage fuzzer: these were answered with an error, which for a response with an id the
    /// client could take for the answer to its own request, and for a notification JSON-RPC forbids.
    @Test func malformedResponsesAndNotificationsWithArrayParamsAreNeverAnswered() async throws {
        let pipes = MCPPipes.start(try Self.server())
        try await pipes.client.initialize()
        pipes.client.send(#"{"jsonrpc": "2.0", "result": {}}"#)
        pipes.client.send(#"{"jsonrpc": "2.0", "id": null, "error": {"code": -32700, "message": "Parse error"}}"#)
        pipes.client.send(#"{"id": "server-1", "result": {}}"#)
        pipes.client.send(#"{"jsonrpc": "2.0", "method": "notifications/cancelled", "params": ["init"]}"#)
        pipes.client.request("p", "ping")
        _ = try await pipes.client.response("p")
        #expect(pipes.client.messages.count == 2, "\(pipes.client.messages)")
        pipes.client.closeOutput()
        await pipes.serving.value
    }

    @Test func answeredRequestsAreForgottenSoALongSessionDoesNotGrow() async throws {
        let server = try Self.server()
        let pipes = MCPPipes.start(server)
        try await pipes.client.initialize()
        for index in 0..<200 { pipes.client.request(.number(Double(index)), "ping") }
        _ = try await pipes.client.response(199)
        let deadline = ContinuousClock.now.advanced(by: .seconds(10))
        while server.state.withLock({ !$0.inFlight.isEmpty }), ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(5))
        }
        #expect(server.state.withLock { $0.inFlight.isEmpty })
        pipes.client.closeOutput()
        await pipes.serving.value
    }

    @Test func anOversizedMessageIsRefusedAndTheNextOneServed() async throws {
        let pipes = MCPPipes.start(try Self.server(maxMessageBytes: 1024))
        try await pipes.client.initialize()
        pipes.client.send(
            #"{"jsonrpc": "2.0", "id": "big", "method": "ping", "params": {"pad": ""#
                + String(repeating: "x", count: 200_000) + #""}}"#)
        let refusal = await pipes.client.waitFor { $0["error"] != nil }
        #expect(refusal?["error"]?["message"] == "The message is longer than 1024 bytes")
        pipes.client.request("small", "ping")
        #expect(try await pipes.client.response("small")["result"] == [:])
        pipes.client.closeOutput()
        await pipes.serving.value
    }

    /// Found by the MCPMessage fuzzer: a line read whole in one read was not held to the limit, only the
    /// unfinished end of a read was.
    @Test func aMessageJustOverTheLimitIsRefusedWhenItArrivesInOneRead() async throws {
        let pipes = MCPPipes.start(try Self.server(maxMessageBytes: 1024))
        try await pipes.client.initialize()
        let line =
            #"{"jsonrpc": "2.0", "id": "big", "method": "ping", "params": {"pad": ""#
            + String(repeating: "x", count: 1100) + #""}}"#
        pipes.client.send(line)
        let refusal = await pipes.client.waitFor { $0["error"] != nil }
        #expect(refusal?["error"]?["message"] == "The message is longer than 1024 bytes")
        #expect(refusal?["id"] == .null)
        pipes.client.request("small", "ping")
        #expect(try await pipes.client.response("small")["result"] == [:])
        #expect(!pipes.client.messages.contains { $0["id"] == "big" })
        pipes.client.closeOutput()
        await pipes.serving.value
    }

    @Test func loggingLevelsAreCheckedAndMessagesFollowTheLevel() async throws {
        let pipes = MCPPipes.start(try Self.server())
        try await pipes.client.initialize()
        pipes.client.request(1, "logging/setLevel", ["level": "loud"])
        #expect(try await pipes.client.response(1)["error"]?["code"] == -32602)
        pipes.client.request(2, "logging/setLevel", ["level": "warning"])
        #expect(try await pipes.client.response(2)["result"] == [:])
        pipes.client.request(3, "tools/call", ["name": "broken"])
        _ = try await pipes.client.response(3)
        let message = await pipes.client.waitFor { $0["method"] == "notifications/message" }
        #expect(message?["params"]?["level"] == "warning")
        #expect(message?["params"]?["data"]?.stringValue?.contains("The disk is full") == true)
        pipes.client.closeOutput()
        await pipes.serving.value
    }

    @Test func theStatelessRevisionNeedsNoHandshake() async throws {
        let pipes = MCPPipes.start(try Self.server())
        let meta: JSONObject = ["_meta": ["io.modelcontextprotocol/protocolVersion": "2026-07-28"]]
        pipes.client.request("d", "server/discover", meta)
        let discovery = try await pipes.client.response("d")["result"]
        #expect(discovery?["supportedVersions"] == ["2026-07-28"])
        #expect(discovery?["resultType"] == "complete")
        #expect(discovery?["_meta"]?["io.modelcontextprotocol/serverInfo"]?["name"] == "test-server")
        pipes.client.request("l", "tools/list", meta)
        let list = try await pipes.client.response("l")["result"]
        #expect(list?["resultType"] == "complete")
        #expect(list?["ttlMs"] != nil && list?["cacheScope"] == "private")
        #expect(list?["tools"]?.arrayValue?.count == MCPTestFunctions.all.count)
        var call = meta
        call["name"] = "answer"
        pipes.client.request("c", "tools/call", call)
        let answer = try await pipes.client.response("c")["result"]
        #expect(answer?["structuredContent"] == 42)
        #expect(answer?["resultType"] == "complete")
        pipes.client.request("p", "ping", meta)
        #expect(try await pipes.client.response("p")["error"]?["code"] == -32601)
        pipes.client.closeOutput()
        await pipes.serving.value
    }

    /// The example of `UnsupportedProtocolVersionError` in the 2026-07-28 specification (basic/versioning).
    @Test func anUnknownRevisionIsTheSpecificationsError() async throws {
        let pipes = MCPPipes.start(try Self.server())
        pipes.client.send(
            #"{"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"_meta": {"io.modelcontextprotocol/protocolVersion": "1900-01-01"}}}"#
        )
        let error = try await pipes.client.response(1)
        let expected = try JSONValue(
            parsing: #"""
                {"jsonrpc": "2.0", "id": 1, "error": {"code": -32022, "message": "Unsupported protocol version",
                 "data": {"supported": ["2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26"], "requested": "1900-01-01"}}}
                """#)
        #expect(error == expected)
        pipes.client.closeOutput()
        await pipes.serving.value
    }

    /// The ping exchange of the 2025-11-25 specification (basic/utilities/ping), message for message.
    @Test func pingIsTheSpecificationsExample() async throws {
        let pipes = MCPPipes.start(try Self.server())
        try await pipes.client.initialize()
        pipes.client.send(#"{"jsonrpc": "2.0", "id": "123", "method": "ping"}"#)
        #expect(
            try await pipes.client.response("123")
                == (try JSONValue(parsing: #"{"jsonrpc": "2.0", "id": "123", "result": {}}"#)))
        pipes.client.closeOutput()
        await pipes.serving.value
    }
}
