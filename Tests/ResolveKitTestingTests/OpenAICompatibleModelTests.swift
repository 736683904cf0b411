import ResolveKitCore
import ResolveKitHTTP
import ResolveKitTesting
import Synchronization
import Testing

/// The LLM proxy against a scripted fake `/v1/chat/completions` server on loopback.
@Suite(.timeLimit(.minutes(1)))
struct OpenAICompatibleModelTests {
    /// Answers completions from a list, recording each request body.
    final class FakeCompletions: Sendable {
        let replies: [(status: Int, body: String)]
        private let received = Mutex<[JSONValue]>([])

        init(_ replies: [(status: Int, body: String)]) { self.replies = replies }

        var requests: [JSONValue] { received.withLock { $0 } }

        var handler: LoopbackHandler {
            { request in
                let index = self.received.withLock { requests in
                    requests.append((try? JSONValue(parsing: request.body)) ?? .null)
                    return requests.count - 1
                }
                let reply = index < self.replies.count ? self.replies[index] : (status: 500, body: "{}")
                return LoopbackResponse(
                    status: reply.status, headers: [("Content-Type", "application/json")],
                    body: .bytes(Array(reply.body.utf8)))
            }
        }
    }

    static let toolCallReply =
        #"{"choices": [{"message": {"role": "assistant", "content": null, "tool_calls": [{"id": "call_x", "type": "function", "function": {"name": "get_local_time", "arguments": "{}"}}]}}]}"#
    static let textReply = #"{"choices": [{"message": {"role": "assistant", "content": "It is noon."}}]}"#

    /// Runs `body` with a backend whose model talks to the fake server through HTTPClient.
    static func withProxiedBackend(_ fake: FakeCompletions, _ body: (BackendHarness) async throws -> Void) async throws
    {
        try await LoopbackHTTPServer.withServer(handler: fake.handler) { server in
            try await HTTPClient.withClient { client in
                let model = OpenAICompatibleModel(url: server.baseURL + "/v1/chat/completions", apiKey: "sk-test") {
                    url, headers, bytes in
                    let response = try await client.send(
                        HTTPRequest(
                            method: .post, url: url,
                            headers: HTTPHeaders(headers.map { .init(name: $0.name, value: $0.value) }), body: bytes))
                    return (response.status, response.body)
                }
                let harness = BackendHarness(model: model)
                try await body(harness)
                await harness.backend.stop()
            }
        }
    }

    @Test("A tool call from the model becomes a tool_call_request, and its result goes back as a tool message")
    func toolRoundTrip() async throws {
        let fake = FakeCompletions([(200, Self.toolCallReply), (200, Self.textReply)])
        try await Self.withProxiedBackend(fake) { harness in
            await harness.registerTranscriptFunctions()
            let session = await harness.createSession()
            let turn = await harness.say("What time is it?", in: session)
            await harness.clock.waitForSleepers(count: 1)
            let request = try #require(Frame(harness.backend.events(inSession: session.id).first?.frame ?? ""))
            #expect(request.payload["function_name"] == "get_local_time")
            let callID = try #require(request.payload["call_id"]?.stringValue)
            await harness.answer(callID, turn: turn, in: session, result: #""noon""#)
            await harness.backend.waitForIdleTurns()
            let complete = try #require(Frame(harness.backend.events(inSession: session.id)[1].frame))
            #expect(complete.payload["full_text"] == "It is noon.")
            let first = fake.requests[0]
            #expect(first["tools"]?[0]?["function"]?["name"] == "get_local_time")
            #expect(first["messages"]?.arrayValue?.last?["content"] == "What time is it?")
            let toolMessage = fake.requests[1]["messages"]?.arrayValue?.last
            #expect(toolMessage?["role"] == "tool")
            #expect(toolMessage?["tool_call_id"]?.stringValue == callID)
            #expect(toolMessage?["content"] == "noon")
        }
    }

    @Test("A later turn's request carries the session's earlier messages (the greeting first), then the new one")
    func historyReachesTheModel() async throws {
        let fake = FakeCompletions([(200, Self.textReply), (200, Self.textReply)])
        try await Self.withProxiedBackend(fake) { harness in
            let session = await harness.createSession()
            await harness.say("What time is it?", in: session)
            await harness.backend.waitForIdleTurns()
            await harness.say("And tomorrow?", in: session, requestID: "req-2")
            await harness.backend.waitForIdleTurns()
            let messages = try #require(fake.requests.last?["messages"]?.arrayValue)
            #expect(fake.requests.count == 2)
            #expect(
                messages.map { $0["role"]?.stringValue ?? "" } == ["system", "assistant", "user", "assistant", "user"])
            #expect(
                messages.dropFirst(2).map { $0["content"]?.stringValue ?? "" }
                    == ["What time is it?", "It is noon.", "And tomorrow?"])
        }
    }

    @Test(
        "Provider failures become error events: 429 is chat_unavailable, 500 is llm_error",
        arguments: [(429, "chat_unavailable"), (500, "llm_error")])
    func failures(status: Int, code: String) async throws {
        let fake = FakeCompletions([(status, "{}")])
        try await Self.withProxiedBackend(fake) { harness in
            let session = await harness.createSession()
            await harness.say("hi", in: session)
            await harness.backend.waitForIdleTurns()
            let frame = try #require(Frame(harness.backend.events(inSession: session.id).first?.frame ?? ""))
            #expect(frame.type == "error")
            #expect(frame.payload["code"]?.stringValue == code)
        }
    }

    @Test("A reply without text or tool calls ends the turn with no event")
    func emptyReply() {
        let round = OpenAICompatibleModel.round(from: ["choices": [["message": ["content": ""]]]])
        guard case .empty = round else {
            Issue.record("expected an empty reply, got \(round)")
            return
        }
    }
}
