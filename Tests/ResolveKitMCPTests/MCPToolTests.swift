import Foundation
import ResolveKit
import Synchronization
import Testing

@testable import ResolveKitMCP

@Suite(.timeLimit(.minutes(1)))
struct MCPToolTests {
    @Test func toolsAreListedWithTheirSchemasAndHintsInPages() async throws {
        let pipes = MCPPipes.start(try MCPLifecycleTests.server(pageSize: 3))
        try await pipes.client.initialize()
        pipes.client.request(1, "tools/list")
        let first = try await pipes.client.response(1)["result"]
        #expect(first?["tools"]?.arrayValue?.map { $0["name"] } == ["set_lights", "answer", "sleeper"])
        let lights = try #require(first?["tools"]?.arrayValue?.first)
        #expect(lights["inputSchema"] == JSONValue.object(MCPTestFunctions.SetLights.resolveKitParametersSchema))
        #expect(lights["annotations"]?["destructiveHint"] == true)
        #expect(lights["annotations"]?["readOnlyHint"] == false)
        let cursor = try #require(first?["nextCursor"])
        pipes.client.request(2, "tools/list", ["cursor": cursor])
        let second = try await pipes.client.response(2)["result"]
        #expect(second?["tools"]?.arrayValue?.map { $0["name"] } == ["broken"])
        #expect(second?["nextCursor"] == nil)
        pipes.client.request(3, "tools/list", ["cursor": "not-ours"])
        #expect(try await pipes.client.response(3)["error"]?["code"] == -32602)
        pipes.client.closeOutput()
        await pipes.serving.value
    }

    @Test func callsAnswerWithTextAndStructuredContentOrAnErrorTheModelCanActOn() async throws {
        let policy = PolicyApprover(rules: ["set_lights": .allow])
        let pipes = MCPPipes.start(try MCPLifecycleTests.server(approver: policy))
        try await pipes.client.initialize()
        pipes.client.request(1, "tools/call", ["name": "set_lights", "arguments": ["room": "hall", "on": "true"]])
        let lights = try await pipes.client.response(1)["result"]
        #expect(lights?["isError"] == false)
        #expect(lights?["structuredContent"] == ["room": "hall", "on": true])
        #expect(lights?["content"]?[0]?["text"] == #"{"on":true,"room":"hall"}"#)
        pipes.client.request(2, "tools/call", ["name": "answer"])
        #expect(try await pipes.client.response(2)["result"]?["structuredContent"] == ["result": 42])
        pipes.client.request(3, "tools/call", ["name": "set_lights", "arguments": ["room": "hall", "on": "maybe"]])
        let invalid = try await pipes.client.response(3)["result"]
        #expect(invalid?["isError"] == true)
        #expect(invalid?["content"]?[0]?["text"]?.stringValue?.contains("$.on") == true)
        pipes.client.request(4, "tools/call", ["name": "broken"])
        #expect(
            try await pipes.client.response(4)["result"]?["content"]?[0]?["text"]
                == "The disk is full; free some space and try again. [disk_full]")
        pipes.client.request(5, "tools/call", ["name": "no_such_tool"])
        #expect(try await pipes.client.response(5)["error"]?["code"] == -32602)
        pipes.client.request(6, "tools/call", ["arguments": [:]])
        #expect(try await pipes.client.response(6)["error"]?["code"] == -32602)
        pipes.client.closeOutput()
        await pipes.serving.value
    }

    @Test func theOldestRevisionGetsTextOnly() async throws {
        let pipes = MCPPipes.start(try MCPLifecycleTests.server())
        try await pipes.client.initialize("2025-03-26")
        pipes.client.request(1, "tools/call", ["name": "answer"])
        let result = try await pipes.client.response(1)["result"]
        #expect(result?["structuredContent"] == nil)
        #expect(result?["content"]?[0]?["text"] == "42")
        pipes.client.closeOutput()
        await pipes.serving.value
    }

    @Test func aDeclinedCallIsAnErrorResultAndTheAuditTrailHasIt() async throws {
        let audit = FileManager.default.temporaryDirectory.appendingPathComponent("mcp-audit-\(UUID()).jsonl").path
        defer { try? FileManager.default.removeItem(atPath: audit) }
        let server = try MCPServer(
            configuration: .init(
                functions: MCPTestFunctions.all, approver: PolicyApprover(rules: ["set_lights": .deny]),
                auditTrail: ApprovalAuditTrail(path: audit)))
        let pipes = MCPPipes.start(server)
        try await pipes.client.initialize()
        pipes.client.request(1, "tools/call", ["name": "set_lights", "arguments": ["room": "hall", "on": true]])
        let result = try await pipes.client.response(1)["result"]
        #expect(result?["isError"] == true)
        #expect(result?["content"]?[0]?["text"] == "Denied by policy [declined]")
        pipes.client.closeOutput()
        await pipes.serving.value
        let text = try String(contentsOfFile: audit, encoding: .utf8)
        #expect(text.contains(#""decision":"declined""#) && text.contains(#""status":"declined""#))
        #expect(ApprovalAuditTrail.verify(path: audit).isIntact)
    }

    @Test func anApprovalFromAnotherTaskLetsTheCallRun() async throws {
        let server = try MCPLifecycleTests.server(approver: ToolApprovals.Deferred())
        let pipes = MCPPipes.start(server)
        try await pipes.client.initialize()
        let updates = server.approvals.updates
        pipes.client.request(1, "tools/call", ["name": "set_lights", "arguments": ["room": "hall", "on": true]])
        for await update in updates {
            guard case .requested(let request) = update else { continue }
            try server.approvals.approve(callIDs: request.calls.map(\.id), by: .host("test"))
            break
        }
        #expect(try await pipes.client.response(1)["result"]?["isError"] == false)
        pipes.client.closeOutput()
        await pipes.serving.value
    }

    @Test func progressIsSentForTheTokenAndACancelledCallStopsWithoutAnAnswer() async throws {
        let before = MCPTestFunctions.Sleeper.sawCancellation.withLock { $0 }
        let pipes = MCPPipes.start(try MCPLifecycleTests.server())
        try await pipes.client.initialize()
        pipes.client.request(7, "tools/call", ["name": "sleeper", "_meta": ["progressToken": "tok"]])
        let progress = await pipes.client.waitFor { $0["params"]?["progress"] == 2 }
        #expect(progress?["params"]?["progressToken"] == "tok")
        let updates = pipes.client.messages.filter { $0["method"] == "notifications/progress" }
        #expect(updates.map { $0["params"]?["progress"] } == [1, 2])
        #expect(updates.first?["params"]?["message"] == "started")
        pipes.client.request(7, "ping")
        #expect(try await pipes.client.response(7)["error"]?["code"] == -32600)
        pipes.client.notify("notifications/cancelled", ["requestId": 7, "reason": "the user pressed stop"])
        pipes.client.request("after", "ping")
        _ = try await pipes.client.response("after")
        await pipes.client.closeOutputAndWait(pipes.serving)
        #expect(MCPTestFunctions.Sleeper.sawCancellation.withLock { $0 } > before)
        #expect(!pipes.client.messages.contains { $0["id"] == 7 && $0["result"] != nil })
    }

    /// Input that ends right after its calls (a script piping them in) gets each call's own failure back (bad
    /// arguments, a function's error); only a call the shutdown cut off says it was.
    @Test func theEndOfInputKeepsTheFailureOfACallThatHadFailedAlready() async throws {
        let pipes = MCPPipes.start(try MCPLifecycleTests.server())
        try await pipes.client.initialize()
        pipes.client.request(1, "tools/call", ["name": "set_lights", "arguments": ["room": "hall", "on": "maybe"]])
        pipes.client.request(2, "tools/call", ["name": "broken"])
        pipes.client.closeOutput()
        await pipes.serving.value
        var texts: [String] = []
        for id in 1...2 {
            let answer = try await pipes.client.response(.number(Double(id)))
            texts.append(answer["result"]?["content"]?[0]?["text"]?.stringValue ?? "")
        }
        #expect(texts[0].contains("$.on"), "\(texts[0])")
        #expect(texts[1] == "The disk is full; free some space and try again. [disk_full]", "\(texts[1])")
    }

    @Test func theEndOfInputCancelsRunningCallsAndAnswersThem() async throws {
        let pipes = MCPPipes.start(try MCPLifecycleTests.server())
        try await pipes.client.initialize()
        pipes.client.request(9, "tools/call", ["name": "sleeper", "_meta": ["progressToken": 1]])
        _ = await pipes.client.waitFor { $0["method"] == "notifications/progress" }
        pipes.client.closeOutput()
        await pipes.serving.value
        let answer = try await pipes.client.response(9)
        #expect(answer["result"]?["isError"] == true)
        #expect(answer["result"]?["content"]?[0]?["text"]?.stringValue?.contains("shutting down") == true)
    }
}

extension MCPTestClient {
    /// Ends the server's input and waits until it has answered what it runs.
    func closeOutputAndWait(_ serving: Task<Void, Never>) async {
        closeOutput()
        await serving.value
    }
}
