import Foundation
import ResolveKitCore
import ResolveKitTesting
import Testing

@Suite(.timeLimit(.minutes(1)))
struct AuthenticationTests {
    @Test(
        "A missing or malformed Authorization header is answered 401 Missing Authorization token",
        arguments: [nil, "bearer rk_test", "Token rk_test", "Bearerrk_test"] as [String?])
    func missingBearer(header: String?) async {
        let harness = BackendHarness()
        let extra = header.map { [(name: "Authorization", value: $0)] } ?? []
        let reply = await harness.send("GET", "/v1/sdk/compat", bearer: nil, headers: extra)
        #expect(reply.status == 401)
        #expect(reply.body == #"{"detail":"Missing Authorization token"}"#)
    }

    @Test("An unknown key is answered 401 Invalid client token, as in the transcript")
    func unknownKey() async {
        let reply = await BackendHarness().send("GET", "/v1/sdk/compat", bearer: "rk_wrong")
        #expect(reply.status == 401)
        #expect(reply.body == #"{"detail":"Invalid client token"}"#)
    }

    @Test("The client-token endpoint accepts only a raw API key and its token then authenticates SDK calls")
    func clientToken() async {
        let harness = BackendHarness()
        let issued = await harness.send("POST", "/v1/sdk/client-token")
        #expect(issued.status == 200)
        #expect(issued.header("Cache-Control") == "no-store")
        let token = issued.json["token"]?.stringValue ?? ""
        #expect(token.hasPrefix("eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9."))
        #expect((await harness.send("GET", "/v1/sdk/compat", bearer: token)).status == 200)
        let again = await harness.send("POST", "/v1/sdk/client-token", bearer: token)
        #expect(again.status == 401)
        #expect(again.body == #"{"detail":"Invalid API key"}"#)
    }

    @Test("A session-scoped call without a capability token is 403 chat_unavailable")
    func missingCapability() async {
        let harness = BackendHarness()
        let session = await harness.createSession()
        let reply = await harness.send("GET", "/v1/sessions/\(session.id)/events")
        #expect(reply.status == 403)
        #expect(
            reply.body == #"{"detail":{"code":"chat_unavailable","message":"Chat is unavailable, try again later"}}"#)
    }

    @Test("The capability check runs before the session lookup, so an unknown session is 403, not 404")
    func capabilityBeforeLookup() async {
        let harness = BackendHarness()
        let session = await harness.createSession()
        let reply = await harness.send(
            "GET", "/v1/sessions/2f0a4c9e-0000-4000-8000-000000000000/messages", capability: session.token)
        #expect(reply.status == 403)
    }

    @Test(
        "Each of the three capability header names is accepted and the first non-blank one wins",
        arguments: ["X-Resolvekit-Chat-Capability", "X-Playbook-Chat-Capability", "x-chat-capability-token"])
    func capabilityHeaderNames(name: String) async {
        let harness = BackendHarness()
        let session = await harness.createSession()
        let primary = "X-Resolvekit-Chat-Capability"
        let headers = name == primary ? [(name: name, value: session.token)] : [(primary, "  "), (name, session.token)]
        let reply = await harness.send("GET", "/v1/sessions/\(session.id)/messages", headers: headers)
        #expect(reply.status == 200)
    }

    @Test("A capability token expires after the session TTL from issuance and is not refreshed by activity")
    func capabilityExpiry() async {
        let harness = BackendHarness()
        let session = await harness.createSession()
        harness.wallClock.advance(seconds: 29 * 60)
        #expect(
            (await harness.send("GET", "/v1/sessions/\(session.id)/messages", capability: session.token)).status == 200)
        harness.wallClock.advance(seconds: 61)
        #expect(
            (await harness.send("GET", "/v1/sessions/\(session.id)/messages", capability: session.token)).status == 403)
    }

    @Test("Reusing the session by device id issues a fresh token for the same session")
    func refreshByReuse() async {
        let harness = BackendHarness()
        let first = await harness.createSession()
        harness.backend.expireCapabilityTokens()
        #expect((await harness.send("GET", "/v1/sessions/\(first.id)/messages", capability: first.token)).status == 403)
        let second = await harness.createSession()
        #expect(second.id == first.id)
        #expect(second.token != first.token)
        #expect(
            (await harness.send("GET", "/v1/sessions/\(first.id)/messages", capability: second.token)).status == 200)
    }

    @Test("A token of another session is rejected with 403")
    func wrongSession() async {
        let harness = BackendHarness()
        let first = await harness.createSession(device: "a")
        let second = await harness.createSession(device: "b")
        #expect(
            (await harness.send("GET", "/v1/sessions/\(second.id)/messages", capability: first.token)).status == 403)
    }

    @Test("The capability token is JWT-shaped with the claims sid, aid, iv, iat, nbf, exp in order")
    func tokenClaims() async throws {
        let harness = BackendHarness()
        let session = await harness.createSession()
        let parts = session.token.split(separator: ".")
        #expect(parts.count == 3)
        #expect(parts[0] == "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9")
        var payload = String(parts[1]).replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while payload.count % 4 != 0 { payload += "=" }
        let decoded = String(decoding: Data(base64Encoded: payload) ?? Data(), as: UTF8.self)
        #expect(
            decoded
                == #"{"sid":"\#(session.id)","aid":"00000000-0000-4000-8000-0000000a0001","iv":1,"iat":1795312328,"nbf":1795312328,"exp":1795314128}"#
        )
    }

    @Test("Switching the integration off makes every session call 403 and invalidates outstanding tokens")
    func integrationToggle() async {
        let harness = BackendHarness()
        let session = await harness.createSession()
        harness.backend.setIntegrationEnabled(false)
        #expect((await harness.send("POST", "/v1/sessions", body: #"{"available_function_names": []}"#)).status == 403)
        harness.backend.setIntegrationEnabled(true)
        #expect(
            (await harness.send("GET", "/v1/sessions/\(session.id)/messages", capability: session.token)).status == 403)
    }

    @Test("A path session id that is not a UUID is 422 before the capability check")
    func nonUUIDPath() async {
        let harness = BackendHarness()
        let reply = await harness.send("GET", "/v1/sessions/not-a-uuid/messages")
        #expect(reply.status == 422)
        #expect(reply.json["detail"]?[0]?["type"] == "uuid_parsing")
        #expect(reply.json["detail"]?[0]?["loc"] == ["path", "session_id"])
    }
}
