import Foundation
import ResolveKitCore
import ResolveKitHTTP
import ResolveKitTesting
import Testing

/// The reference backend over real sockets: HTTPClient (libcurl) → LoopbackHTTPServer → ReferenceBackend.
/// Every test starts its own server on an ephemeral port.
@Suite(.timeLimit(.minutes(1)))
struct ContractTests {
    static let key = "rk_contract"

    /// Runs `body` with a backend served on loopback and an HTTP client; stops everything afterwards.
    static func withBackend(
        _ configuration: ReferenceBackend.Configuration = .init(apiKeys: [key], clock: ManualClock()),
        _ body: (ReferenceBackend, Wire) async throws -> Void
    ) async throws {
        try await ReferenceBackend.withServer(configuration: configuration) { backend, server in
            try await HTTPClient.withClient { client in
                try await body(backend, Wire(client: client, baseURL: server.baseURL))
            }
        }
    }

    struct Wire {
        let client: HTTPClient
        let baseURL: String

        func request(_ method: HTTPMethod, _ path: String, body: String? = nil, token: String? = nil) -> HTTPRequest {
            var headers: HTTPHeaders = ["Authorization": "Bearer \(ContractTests.key)"]
            if let token { headers.add(name: "X-Resolvekit-Chat-Capability", value: token) }
            if body != nil { headers.add(name: "Content-Type", value: "application/json") }
            return HTTPRequest(method: method, url: baseURL + path, headers: headers, body: body.map { Array($0.utf8) })
        }

        func send(_ method: HTTPMethod, _ path: String, body: String? = nil, token: String? = nil) async throws
            -> (status: Int, json: JSONValue, text: String)
        {
            let response = try await client.send(request(method, path, body: body, token: token))
            let text = String(decoding: response.body, as: UTF8.self)
            return (response.status, (try? JSONValue(parsing: response.body)) ?? .null, text)
        }

        func session() async throws -> (id: String, token: String) {
            _ = try await send(.put, "/v1/functions/bulk", body: BackendHarness.transcriptFunctions)
            let created = try await send(
                .post, "/v1/sessions",
                body: #"{"device_id": "d", "available_function_names": ["get_local_time", "set_lights"]}"#)
            return (created.json["id"]?.stringValue ?? "", created.json["chat_capability_token"]?.stringValue ?? "")
        }
    }

    /// Reads SSE frames from a streamed body until `count` events arrived.
    static func readEvents(_ iterator: inout HTTPResponseBody.AsyncIterator, count: Int, buffer: inout String)
        async throws -> [Frame]
    {
        var frames: [Frame] = []
        while frames.count < count {
            if let range = buffer.range(of: "\n\n") {
                let block = String(buffer[..<range.upperBound])
                buffer.removeSubrange(..<range.upperBound)
                if let frame = Frame(block) { frames.append(frame) }
                continue
            }
            guard let chunk = try await iterator.next() else { break }
            buffer += String(decoding: chunk, as: UTF8.self)
        }
        return frames
    }

    @Test("A whole tool-call turn works over the wire: SSE headers, tool_call_request, posted result, turn_complete")
    func turnOverTheWire() async throws {
        try await Self.withBackend { backend, wire in
            let session = try await wire.session()
            let stream = try await wire.client.execute(
                wire.request(.get, "/v1/sessions/\(session.id)/events", token: session.token))
            #expect(stream.status == 200)
            #expect(stream.headers["content-type"] == "text/event-stream; charset=utf-8")
            #expect(stream.headers["x-accel-buffering"] == "no")
            var iterator = stream.body.makeAsyncIterator()
            var buffer = ""
            let accepted = try await wire.send(
                .post, "/v1/sessions/\(session.id)/messages",
                body: #"{"text": "What time is it?", "request_id": "r1"}"#, token: session.token)
            #expect(accepted.status == 202)
            let turn = accepted.json["turn_id"]?.stringValue ?? ""
            let request = try #require(try await Self.readEvents(&iterator, count: 1, buffer: &buffer).first)
            #expect(buffer.isEmpty)
            let callID = request.payload["call_id"]?.stringValue ?? ""
            let result = try await wire.send(
                .post, "/v1/sessions/\(session.id)/tool-results",
                body:
                    #"{"turn_id": "\#(turn)", "idempotency_key": "\#(callID)", "call_id": "\#(callID)", "status": "success", "result": "noon"}"#,
                token: session.token)
            #expect(result.text == #"{"status":"ok","deduplicated":false}"#)
            let rest = try await Self.readEvents(&iterator, count: 2, buffer: &buffer)
            #expect(rest.map(\.type) == ["turn_complete", "feedback_requested"])
            #expect(rest.first?.payload["full_text"] == #"Done. The get_local_time returned "noon"."#)
            #expect(backend.counters.toolResults[callID]?.accepted == 1)
        }
    }

    @Test("Error shapes travel unchanged: 401, 403 chat_unavailable, 422, 409")
    func errorsOverTheWire() async throws {
        try await Self.withBackend { _, wire in
            let session = try await wire.session()
            var anonymous = wire.request(.get, "/v1/sdk/compat")
            anonymous.headers.replaceOrAdd(name: "Authorization", value: "Bearer nope")
            let unauthorized = try await wire.client.send(anonymous)
            #expect(unauthorized.status == 401)
            #expect(String(decoding: unauthorized.body, as: UTF8.self) == #"{"detail":"Invalid client token"}"#)
            #expect(unauthorized.headers["content-type"] == "application/json")
            let forbidden = try await wire.send(.get, "/v1/sessions/\(session.id)/messages")
            #expect(forbidden.json["detail"]?["code"] == "chat_unavailable")
            let invalid = try await wire.send(.post, "/v1/sessions", body: #"{"nope": 1}"#)
            #expect(invalid.status == 422)
            _ = try await wire.send(
                .post, "/v1/sessions/\(session.id)/messages", body: #"{"text": "time", "request_id": "a"}"#,
                token: session.token)
            let busy = try await wire.send(
                .post, "/v1/sessions/\(session.id)/messages", body: #"{"text": "x", "request_id": "b"}"#,
                token: session.token)
            #expect(busy.status == 409)
        }
    }

    @Test("A stream cut mid-frame fails the client's body, and a reconnect with the last cursor delivers the rest")
    func dropAndResume() async throws {
        let faults = FaultPlan()
        try await Self.withBackend(.init(apiKeys: [Self.key], faults: faults, clock: ManualClock())) { backend, wire in
            let session = try await wire.session()
            for text in ["one", "two"] { backend.sendHumanMessage(text, toSession: session.id) }
            let firstFrame = backend.events(inSession: session.id)[0]
            faults.dropStream(.atByteOffset(13 + firstFrame.frame.utf8.count + 10))
            let cut = try await wire.client.execute(
                wire.request(.get, "/v1/sessions/\(session.id)/events", token: session.token))
            var iterator = cut.body.makeAsyncIterator()
            var buffer = ""
            await #expect(throws: HTTPError.self) {
                _ = try await Self.readEvents(&iterator, count: 2, buffer: &buffer)
            }
            let resumed = try await wire.client.execute(
                wire.request(.get, "/v1/sessions/\(session.id)/events?cursor=\(firstFrame.id)", token: session.token))
            var again = resumed.body.makeAsyncIterator()
            var rest = ""
            let frames = try await Self.readEvents(&again, count: 1, buffer: &rest)
            #expect(frames.first?.payload["text"] == "two")
        }
    }

    @Test("With a one-second cap the server finishes the stream cleanly after the connected comment")
    func connectionCap() async throws {
        let configuration = ReferenceBackend.Configuration(apiKeys: [Self.key], streamConnectionCap: .seconds(1))
        try await Self.withBackend(configuration) { _, wire in
            let session = try await wire.session()
            let stream = try await wire.client.execute(
                wire.request(.get, "/v1/sessions/\(session.id)/events", token: session.token))
            let body = try await stream.body.collect(upTo: 1024)
            #expect(String(decoding: body, as: UTF8.self) == ": connected\n\n")
        }
    }
}
