import ResolveKitCore
import ResolveKitTesting
import Testing

@Suite(.timeLimit(.minutes(1)))
struct SessionEndpointTests {
    @Test("A new session is 201 with the transcript's fields, a greeting and reused_active_session false")
    func createsSession() async {
        let harness = BackendHarness()
        let reply = await harness.send(
            "POST", "/v1/sessions",
            body:
                #"{"device_id": "probe", "client": {"platform": "ios", "os_name": "iOS", "os_version": "18.0", "app_version": "1.2.3", "app_build": "45", "sdk_name": "resolvekit-probe", "sdk_version": "1.0.0"}, "llm_context": {"plan": "pro"}, "available_function_names": ["get_local_time"], "locale": "en", "preferred_locales": ["en-US"], "reuse_active_session": true}"#
        )
        #expect(reply.status == 201)
        let id = reply.json["id"]?.stringValue ?? ""
        let token = reply.json["chat_capability_token"]?.stringValue ?? ""
        #expect(
            reply.body
                == #"{"id":"\#(id)","app_id":"00000000-0000-4000-8000-0000000a0001","device_id":"probe","client_context":{"os_name":"iOS","platform":"ios","sdk_name":"resolvekit-probe","app_build":"45","os_version":"18.0","app_version":"1.2.3","sdk_version":"1.0.0"},"llm_context":{"plan":"pro"},"available_function_names":["get_local_time"],"locale":"en","chat_title":"Support Chat","message_placeholder":"Message","initial_message":"Hello! How can I help you today?","status":"active","last_activity_at":"2026-11-22T01:52:08.500000Z","created_at":"2026-11-22T01:52:08.500000Z","events_url":"/v1/sessions/\#(id)/events","chat_capability_token":"\#(token)","reused_active_session":false}"#
        )
        let messages = await harness.send("GET", "/v1/sessions/\(id)/messages", capability: token)
        #expect(messages.json[0]?["role"] == "assistant")
        #expect(messages.json[0]?["content"] == "Hello! How can I help you today?")
        #expect(messages.json[0]?["sequence_number"] == 1)
    }

    @Test("The same device reuses its active session within the TTL and gets a new one after expiry or escalation")
    func reuseRules() async {
        let harness = BackendHarness()
        let first = await harness.createSession()
        #expect((await harness.createSession()).id == first.id)
        #expect((await harness.createSession(extra: #", "reuse_active_session": false"#)).id != first.id)
        let current = await harness.createSession()
        harness.backend.setStatus(.escalated, ofSession: current.id)
        let afterEscalation = await harness.createSession()
        #expect(afterEscalation.id != current.id)
        harness.wallClock.advance(seconds: 31 * 60)
        #expect((await harness.createSession()).id != afterEscalation.id)
    }

    @Test("A reused session keeps its history and gets no second greeting")
    func reuseHasNoGreeting() async {
        let harness = BackendHarness()
        let first = await harness.createSession()
        let reply = await harness.send(
            "POST", "/v1/sessions", body: #"{"device_id": "device-1", "available_function_names": []}"#)
        #expect(reply.json["reused_active_session"] == true)
        #expect(reply.json["client_context"] == .object([:]))
        let messages = await harness.send("GET", "/v1/sessions/\(first.id)/messages", capability: first.token)
        #expect(messages.json.arrayValue?.count == 1)
    }

    @Test(
        "Unknown keys, a missing allow-list and over-long fields are 422 with pydantic's error types",
        arguments: [
            (#"{"available_function_names": [], "extra": 1}"#, "extra_forbidden", ["body", "extra"]),
            (#"{"device_id": "d"}"#, "missing", ["body", "available_function_names"]),
            (
                #"{"available_function_names": [], "client": {"platform": "linux", "kernel": "6"}}"#, "extra_forbidden",
                ["body", "client", "kernel"]
            ),
            (#"{"available_function_names": [""]}"#, "string_too_short", ["body", "available_function_names", 0]),
            (
                #"{"available_function_names": [], "locale": "abcdefghijklmnopqrstuvwxyz0123456789"}"#,
                "string_too_long", ["body", "locale"]
            ),
            (
                #"{"available_function_names": [], "reuse_active_session": "x"}"#, "bool_type",
                ["body", "reuse_active_session"]
            ),
            (#"{"available_function_names": "#, "json_invalid", ["body", 29]),
        ] as [(String, String, JSONValue)])
    func validation(body: String, type: String, location: JSONValue) async {
        let reply = await BackendHarness().send("POST", "/v1/sessions", body: body)
        #expect(reply.status == 422)
        #expect(reply.json["detail"]?[0]?["type"]?.stringValue == type)
        #expect(reply.json["detail"]?[0]?["loc"] == location)
    }

    @Test("An extra key yields exactly FastAPI's 422 body")
    func extraKeyBody() async {
        let reply = await BackendHarness().send(
            "POST", "/v1/sessions", body: #"{"available_function_names": [], "x": true}"#)
        #expect(
            reply.body
                == #"{"detail":[{"type":"extra_forbidden","loc":["body","x"],"msg":"Extra inputs are not permitted","input":true}]}"#
        )
    }

    @Test(
        "Locales resolve by lower-casing, replacing underscores, aliases and the language part, else English",
        arguments: [
            (#""locale": "de_DE""#, "de"), (#""locale": "PT-br""#, "pt-br"), (#""locale": "zh-Hans""#, "zh-cn"),
            (#""locale": "xx", "preferred_locales": ["tlh", "fr-CA"]"#, "fr"), (#""locale": "klingon""#, "en"),
        ])
    func localeResolution(fields: String, expected: String) async {
        let reply = await BackendHarness().send(
            "POST", "/v1/sessions", body: #"{"available_function_names": [], \#(fields)}"#)
        #expect(reply.json["locale"]?.stringValue == expected)
    }

    @Test(
        "PATCH context replaces the allow-list and client, keeps the locale when blank, and answers SessionContextOut")
    func patchContext() async {
        let harness = BackendHarness()
        let session = await harness.createSession()
        harness.wallClock.advance(seconds: 10)
        let reply = await harness.send(
            "PATCH", "/v1/sessions/\(session.id)/context",
            body: #"{"available_function_names": ["get_local_time"], "llm_context": {"plan": "free"}, "locale": ""}"#,
            capability: session.token)
        #expect(reply.status == 200)
        #expect(
            reply.body
                == #"{"id":"\#(session.id)","app_id":"00000000-0000-4000-8000-0000000a0001","client_context":{"platform":"linux"},"llm_context":{"plan":"free"},"available_function_names":["get_local_time"],"locale":"en","last_activity_at":"2026-11-22T01:52:18.500000Z"}"#
        )
        let missing = await harness.send(
            "PATCH", "/v1/sessions/\(session.id)/context", body: "{}", capability: session.token)
        #expect(missing.status == 422)
    }

    @Test("Localization resolves and stores the requested locale")
    func localization() async {
        let harness = BackendHarness()
        let session = await harness.createSession()
        let reply = await harness.send(
            "GET", "/v1/sessions/\(session.id)/localization?locale=de_AT", capability: session.token)
        #expect(
            reply.body
                == #"{"locale":"de","chat_title":"Support-Chat","message_placeholder":"Nachricht","initial_message":"Hallo! Wie kann ich Ihnen heute helfen?"}"#
        )
        let fallback = await harness.send("GET", "/v1/sessions/\(session.id)/localization", capability: session.token)
        #expect(fallback.json["locale"] == "de")
    }

    @Test("Feedback is 201 once and 409 afterwards, also for an escalated session")
    func feedback() async {
        let harness = BackendHarness()
        let session = await harness.createSession()
        harness.backend.setStatus(.escalated, ofSession: session.id)
        let first = await harness.post(session, "feedback", #"{"rating": 5, "comment": "probe"}"#)
        #expect(first.status == 201)
        #expect(first.json["rating"] == 5)
        #expect(first.json["comment"] == "probe")
        let second = await harness.post(session, "feedback", #"{"rating": 4}"#)
        #expect(second.status == 409)
        #expect(second.body == #"{"detail":"Feedback already submitted for this session"}"#)
        #expect((await harness.post(session, "feedback", #"{"rating": 6}"#)).status == 422)
    }

    @Test("Health, compat and chat theme answer the transcript's bodies")
    func sdkEndpoints() async {
        let harness = BackendHarness()
        #expect((await harness.send("GET", "/health", bearer: nil)).body == #"{"status":"ok"}"#)
        let compat = await harness.send("GET", "/v1/sdk/compat")
        #expect(
            compat.body
                == #"{"minimum_sdk_version":"1.0.0","supported_sdk_major_versions":[1],"client_requirements":["client.platform","client.os_version","client.app_version"],"server_time":"2026-11-22T01:52:08.500000+00:00"}"#
        )
        let theme = await harness.send("GET", "/v1/sdk/chat-theme")
        #expect(theme.json["light"]?.objectValue?.count == 17)
        #expect(theme.json["dark"]?["userBubbleBackground"] == "#1E3A8A99")
        #expect(theme.body.hasPrefix(##"{"light":{"screenBackground":"#F7F7FA","titleText":"#111827""##))
    }

    @Test(
        "A session idle past its TTL, closed, or marked expired answers 410 on messages and events but still lists history",
        arguments: [nil, ReferenceBackend.SessionStatus.closed, .expired])
    func goneSessions(status: ReferenceBackend.SessionStatus?) async {
        let harness = BackendHarness(capabilityTokenTTL: .seconds(3600))
        let session = await harness.createSession()
        if let status {
            harness.backend.setStatus(status, ofSession: session.id)
        } else {
            harness.wallClock.advance(seconds: 30 * 60 + 1)
        }
        let message = await harness.post(session, "messages", #"{"text": "hi", "request_id": "r"}"#)
        #expect(message.status == 410)
        #expect(
            (await harness.send("GET", "/v1/sessions/\(session.id)/events", capability: session.token)).status == 410)
        #expect(
            (await harness.send("GET", "/v1/sessions/\(session.id)/messages", capability: session.token)).status == 200)
    }

    @Test("PATCH context keeps an idle session alive because it bumps last activity")
    func patchKeepsAlive() async {
        let harness = BackendHarness(capabilityTokenTTL: .seconds(3600))
        let session = await harness.createSession()
        harness.wallClock.advance(seconds: 20 * 60)
        await harness.send(
            "PATCH", "/v1/sessions/\(session.id)/context", body: #"{"available_function_names": []}"#,
            capability: session.token)
        harness.wallClock.advance(seconds: 20 * 60)
        #expect((await harness.post(session, "messages", #"{"text": "hi", "request_id": "r"}"#)).status == 202)
        await harness.backend.waitForIdleTurns()
    }
}
