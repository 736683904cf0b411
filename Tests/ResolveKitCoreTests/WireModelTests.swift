import Foundation
import ResolveKitCore
import Testing

/// Frames recorded from the real backend (PROTOCOL-TRANSCRIPT.md) and the shapes of WireProtocol §6.
struct WireModelTests {
    static let toolCallFrame = #"{"event_id": "1795312330424-0", "turn_id": "08ebcd50-2634-4832-90cc-03a8a9ef8736", "request_id": "req-B1", "timestamp": "2026-11-22T01:52:10.424086+00:00", "type": "tool_call_request", "payload": {"call_id": "call_d7b0e11f1d8446ecbbacc1e0", "function_name": "set_lights", "arguments": {"on": true, "room": "kitchen"}, "timeout_seconds": 60, "human_description": "I will set lights with on true, room \"kitchen\".", "requires_approval": true}}"#

    @Test func decodesAToolCallRequestFrame() throws {
        let envelope = try EventEnvelope(jsonBytes: Array(Self.toolCallFrame.utf8))
        #expect(envelope.eventID == "1795312330424-0")
        #expect(envelope.turnID == "08ebcd50-2634-4832-90cc-03a8a9ef8736")
        #expect(envelope.requestID == "req-B1")
        #expect(try envelope.event() == .toolCallRequest(ToolCallRequest(
            callID: "call_d7b0e11f1d8446ecbbacc1e0", functionName: "set_lights", arguments: ["on": true, "room": "kitchen"],
            timeoutSeconds: 60, humanDescription: "I will set lights with on true, room \"kitchen\".", requiresApproval: true)))
    }

    static let frames: [(String, ResolveKitEvent)] = [
        (
            #"{"type": "turn_complete", "payload": {"full_text": "Done.", "usage": {"prompt_tokens": 616, "completion_tokens": 15}}}"#,
            .turnComplete(TurnComplete(fullText: "Done.", usage: TokenUsage(promptTokens: 616, completionTokens: 15)))
        ),
        (
            #"{"type": "turn_complete", "payload": {"full_text": "Sorry, I can only help with this app.", "usage": null}}"#,
            .turnComplete(TurnComplete(fullText: "Sorry, I can only help with this app.", usage: nil))
        ),
        (#"{"type": "feedback_requested", "payload": {"immediate": false}}"#, .feedbackRequested(FeedbackRequested(immediate: false))),
        (
            #"{"type": "error", "payload": {"code": "llm_error", "message": "Assistant is temporarily unavailable. Please try again.", "recoverable": true}}"#,
            .error(ErrorEvent(code: "llm_error", message: "Assistant is temporarily unavailable. Please try again."))
        ),
        (
            #"{"type": "session_escalated", "payload": {"reason": "User asked for a human agent"}}"#,
            .sessionEscalated(SessionEscalated(reason: "User asked for a human agent"))
        ),
        (
            #"{"type": "human_message", "payload": {"message_id": "m1", "text": "Hi, I am Ana."}}"#,
            .humanMessage(HumanMessage(messageID: "m1", text: "Hi, I am Ana."))
        ),
        (
            #"{"type": "assistant_text_delta", "payload": {"delta": "lo", "accumulated": "Hello"}}"#,
            .assistantTextDelta(AssistantTextDelta(delta: "lo", accumulated: "Hello"))
        ),
        (#"{"type": "turn_started", "payload": {"x": 1}}"#, .unknown(type: "turn_started", payload: ["x": 1])),
    ]

    @Test(arguments: frames)
    func decodesEveryEventTypeAndKeepsUnknownOnes(frame: String, expected: ResolveKitEvent) throws {
        let envelope = try EventEnvelope(jsonBytes: Array(Self.envelope(frame).utf8))
        #expect(try envelope.event() == expected)
    }

    static func envelope(_ partial: String) -> String {
        #"{"event_id": "1", "turn_id": "t", "request_id": "r", "timestamp": "2026-11-22T01:52:09.875427+00:00", "# + partial.dropFirst()
    }

    @Test func keepsArgumentsThatAreNotAnObjectSoTheCallCanBeAnswered() throws {
        let envelope = try EventEnvelope(jsonBytes: Array(Self.envelope(
            #"{"type": "tool_call_request", "payload": {"call_id": "c1", "function_name": "f", "arguments": [1, 2]}}"#).utf8))
        guard case .toolCallRequest(let request) = try envelope.event() else { Issue.record("wrong type"); return }
        #expect(request.arguments == [1, 2])
        #expect(request.timeoutSeconds == 30)
        #expect(request.humanDescription == "I will run f")
        #expect(request.requiresApproval)
    }

    @Test func namesThePathOfAMalformedPayload() throws {
        let envelope = try EventEnvelope(jsonBytes: Array(Self.envelope(
            #"{"type": "tool_call_request", "payload": {"call_id": 7, "function_name": "f"}}"#).utf8))
        #expect { try envelope.event() } throws: { "\($0)" == "$.payload.call_id: expected string, got integer" }
        #expect { try EventEnvelope(jsonBytes: Array(#"{"event_id": 1}"#.utf8)) } throws: {
            "\($0)" == "$.event_id: expected string, got integer"
        }
        #expect { try EventEnvelope(jsonBytes: Array("{\"event_id\"".utf8)) } throws: {
            "\($0)".contains("malformed JSON") && "\($0)".contains("at byte 11")
        }
    }

    @Test func writesToolResultsAsTheBackendExpects() {
        let success = ToolResultSubmission(turnID: "t", callID: "c", idempotencyKey: "c-1", outcome: .success(["ok": true]))
        #expect(success.json == ["turn_id": "t", "call_id": "c", "idempotency_key": "c-1", "status": "success", "result": ["ok": true]])
        let declined = ToolResultSubmission(turnID: "t", callID: "c", idempotencyKey: "c-1", outcome: .failure(.declined()))
        #expect(declined.json["status"] == "declined")
        #expect(declined.json["error"] == "User denied action")
        let long = ToolResultSubmission(
            turnID: "t", callID: "c", idempotencyKey: "k", outcome: .failure(.executionFailed(String(repeating: "x", count: 5000))))
        #expect(long.json["error"]?.stringValue?.count == 4096)
    }

    @Test(arguments: [
        ("disk_full", "disk_full"), ("timed_out", "timed_out"), ("success", "error"), ("Has Spaces", "error"),
        (String(repeating: "a", count: 33), "error"), ("", "error"),
    ])
    func anErrorsCodeTravelsAsTheStatusWhenTheFieldCanHoldIt(code: String, status: String) {
        let error = ResolveKitFunctionError(code: .init(code), message: "m")
        let body = ToolResultSubmission(turnID: "t", callID: "c", idempotencyKey: "k", outcome: .failure(error))
        #expect(body.json["status"]?.stringValue == status)
        #expect(body.json["error"] == "m")
    }

    @Test func writesSessionRequestsWithoutAbsentMembers() {
        let request = SessionCreateRequest(
            deviceID: "dev", client: ClientInfo(platform: "linux", osVersion: "12"), availableFunctionNames: ["a"])
        #expect(request.json == [
            "device_id": "dev", "client": ["platform": "linux", "os_version": "12"], "llm_context": [:],
            "available_function_names": ["a"], "preferred_locales": [], "reuse_active_session": true,
        ])
        #expect(SessionContextPatch(availableFunctionNames: []).json == ["available_function_names": []])
        #expect(MessageSubmitRequest(text: "hi", requestID: "r").json == ["text": "hi", "request_id": "r"])
    }

    @Test func readsASessionResponseFromTheTranscript() throws {
        let body = #"{"id":"07ba516d-d7ca-455b-8519-f8ff841da3a6","app_id":"00000000-0000-4000-8000-0000000a0001","device_id":"probe","client_context":{},"llm_context":{},"available_function_names":["get_local_time","set_lights"],"locale":"en","chat_title":"Support Chat","message_placeholder":"Message","initial_message":"Hello! How can I help you today?","status":"active","last_activity_at":"2026-11-22T01:52:08.781062Z","created_at":"2026-11-22T01:52:08.756182Z","events_url":"/v1/sessions/07ba516d-d7ca-455b-8519-f8ff841da3a6/events","chat_capability_token":"eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzaWQiOiIwN2JhNTE2ZC1kN2NhLTQ1NWItODUxOS1mOGZmODQxZGEzYTYiLCJhaWQiOiIwMDAwMDAwMC0wMDAwLTQwMDAtODAwMC0wMDAwMDAwYTAwMDEiLCJpdiI6MSwiaWF0IjoxNzk1MzEyMzI4LCJuYmYiOjE3OTUzMTIzMjgsImV4cCI6MTc5NTMxNTkyOH0.TWkNzmk-1u5NmkopeWrL08DorwL18VjSnZjTFnrpNKE","reused_active_session":true}"#
        let session = try SessionResponse(jsonBytes: Array(body.utf8))
        #expect(session.reusedActiveSession)
        #expect(session.eventsURL.hasSuffix("/events"))
        let token = CapabilityToken(session.chatCapabilityToken)
        #expect(token.sessionID == "07ba516d-d7ca-455b-8519-f8ff841da3a6")
        #expect(token.expiresAt == Date(timeIntervalSince1970: 1_795_315_928))
        #expect(token.needsRefresh(at: Date(timeIntervalSince1970: 1_795_315_900)))
        #expect(!token.needsRefresh(at: Date(timeIntervalSince1970: 1_795_312_328)))
        #expect(!"\(token)".contains(session.chatCapabilityToken))
    }

    @Test(arguments: [
        (#"{"detail":"A turn is already in progress"}"#, ServerErrorBody.detail("A turn is already in progress")),
        (
            #"{"detail":{"code":"chat_unavailable","message":"Chat is unavailable, try again later"}}"#,
            .coded(code: "chat_unavailable", message: "Chat is unavailable, try again later")
        ),
        (
            #"{"detail":[{"type":"missing","loc":["body","available_function_names"],"msg":"Field required","input":{}}]}"#,
            .validation([.init(type: "missing", location: "body.available_function_names", message: "Field required")])
        ),
        ("Internal Server Error", .other("Internal Server Error")),
        ("upstream\r\n  timed   out\n", .other("upstream timed out")),
        (
            "<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1>"
                + "</center>\r\n<hr><center>nginx/1.22.1</center>\r\n</body>\r\n</html>\r\n",
            .other("an HTML page titled '502 Bad Gateway', not the backend's JSON: a proxy or gateway in front of it "
                + "answered")
        ),
    ])
    func readsEveryServerErrorShape(body: String, expected: ServerErrorBody) {
        #expect(ServerErrorBody(bytes: Array(body.utf8)) == expected)
    }

    @Test func gatesTheSDKVersionAsTheCompatEndpointSays() throws {
        let compat = try CompatibilityInfo(jsonBytes: Array(
            #"{"minimum_sdk_version":"1.2.0","supported_sdk_major_versions":[1],"client_requirements":[],"server_time":"x"}"#.utf8))
        #expect(compat.supports(sdkVersion: "1.2.0"))
        #expect(compat.supports(sdkVersion: "1.10.1"))
        #expect(!compat.supports(sdkVersion: "1.1.9"))
        #expect(!compat.supports(sdkVersion: "2.0.0"))
    }
}
