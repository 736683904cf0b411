import ResolveKitCore
import ResolveKitTesting
import Testing

@Suite(.timeLimit(.minutes(1)))
struct ToolResultTests {
    /// Starts a turn that waits for one `get_local_time` call; returns the session, turn id and call id.
    static func pendingCall(_ harness: BackendHarness) async throws -> (BackendHarness.Session, String, String) {
        await harness.registerTranscriptFunctions()
        let session = await harness.createSession()
        let turn = await harness.say("What time is it?", in: session)
        await harness.clock.waitForSleepers(count: 1)
        let frame = try #require(harness.backend.events(inSession: session.id).first?.frame)
        let callID = try #require(Frame(frame)?.payload["call_id"]?.stringValue)
        return (session, turn, callID)
    }

    @Test("The first result is accepted, the same key again is deduplicated, and a different key is ignored with 200")
    func decisionTable() async throws {
        let harness = BackendHarness(
            script: AgentScript(rules: [
                .init(.always, rounds: [.toolCalls([.init("get_local_time")]), .text("{result}")])
            ]))
        let (session, turn, callID) = try await Self.pendingCall(harness)
        let first = await harness.answer(callID, turn: turn, in: session, result: #""first""#, key: "k1")
        #expect(first.body == #"{"status":"ok","deduplicated":false}"#)
        let repeated = await harness.answer(callID, turn: turn, in: session, result: #""first""#, key: "k1")
        #expect(repeated.body == #"{"status":"ok","deduplicated":true}"#)
        await harness.backend.waitForIdleTurns()
        #expect(Frame(harness.backend.events(inSession: session.id)[1].frame)?.payload["full_text"] == "first")
        #expect(harness.backend.counters.toolResults[callID] == .init(accepted: 1, duplicates: 1))
    }

    @Test("A second result with another key while the call is still pending is answered 200 and ignored; first wins")
    func firstWins() async throws {
        let script = AgentScript(rules: [
            .init(
                .always,
                rounds: [.toolCalls([.init("set_lights"), .init("get_local_time")]), .text("{result1}/{result2}")])
        ])
        let harness = BackendHarness(script: script)
        await harness.registerTranscriptFunctions()
        let session = await harness.createSession()
        let turn = await harness.say("go", in: session)
        await harness.clock.waitForSleepers(count: 1)
        let ids = harness.backend.events(inSession: session.id).compactMap {
            Frame($0.frame)?.payload["call_id"]?.stringValue
        }
        #expect((await harness.answer(ids[1], turn: turn, in: session, result: #""A""#, key: "a")).status == 200)
        let ignored = await harness.answer(ids[1], turn: turn, in: session, result: #""B""#, key: "b")
        #expect(ignored.body == #"{"status":"ok","deduplicated":false}"#)
        await harness.answer(ids[0], turn: turn, in: session, result: #""L""#)
        await harness.backend.waitForIdleTurns()
        #expect(Frame(harness.backend.events(inSession: session.id)[2].frame)?.payload["full_text"] == "L/A")
        #expect(harness.backend.counters.toolResults[ids[1]] == .init(accepted: 1, ignored: 1))
    }

    @Test("An unknown call id is 404, and the same submission again within the turn is deduplicated")
    func unknownCall() async throws {
        let harness = BackendHarness()
        let (session, turn, _) = try await Self.pendingCall(harness)
        let unknown = await harness.answer(
            "call_does_not_exist", turn: turn, in: session, result: #""x""#, key: "bogus-1")
        #expect(unknown.status == 404)
        #expect(unknown.body == #"{"detail":"No pending tool call with this ID"}"#)
        let again = await harness.answer(
            "call_does_not_exist", turn: turn, in: session, result: #""x""#, key: "bogus-1")
        #expect(again.json["deduplicated"] == true)
        #expect(harness.backend.counters.toolResults["call_does_not_exist"] == .init(duplicates: 1, notPending: 1))
        await harness.backend.stop()
    }

    @Test(
        "With Redis semantics an unknown call id is 200 while a turn runs and 404 once no turn runs, as in the transcript"
    )
    func redisSemantics() async throws {
        let harness = BackendHarness(toolResultSemantics: .redis)
        let (session, turn, callID) = try await Self.pendingCall(harness)
        let bogus = await harness.answer(
            "call_does_not_exist", turn: turn, in: session, result: #""x""#, key: "bogus-1")
        #expect(bogus.body == #"{"status":"ok","deduplicated":false}"#)
        await harness.answer(callID, turn: turn, in: session, result: #""t""#)
        await harness.backend.waitForIdleTurns()
        let stale = await harness.answer(
            "call_stale", turn: "00000000-0000-0000-0000-000000000000", in: session, result: #""x""#)
        #expect(stale.status == 404)
        let messages = await harness.send("GET", "/v1/sessions/\(session.id)/messages", capability: session.token)
        #expect(messages.json.arrayValue?.map { $0["sequence_number"]?.intValue ?? 0 } == [1, 2, 5])
    }

    @Test("A result for a finished turn is 404 and the dedupe memory is cleared when the turn ends")
    func staleCall() async throws {
        let harness = BackendHarness()
        let (session, turn, callID) = try await Self.pendingCall(harness)
        await harness.answer(callID, turn: turn, in: session, result: #""t""#)
        await harness.backend.waitForIdleTurns()
        let late = await harness.answer(callID, turn: turn, in: session, result: #""t""#)
        #expect(late.status == 404)
    }

    @Test("A non-success status reaches the model as an error object, null error as Unknown error")
    func errorResults() async throws {
        let harness = BackendHarness()
        let (session, turn, callID) = try await Self.pendingCall(harness)
        let body =
            #"{"turn_id": "\#(turn)", "idempotency_key": "deny", "call_id": "\#(callID)", "status": "error", "error": "User declined the action"}"#
        #expect((await harness.post(session, "tool-results", body)).status == 200)
        await harness.backend.waitForIdleTurns()
        #expect(
            Frame(harness.backend.events(inSession: session.id)[1].frame)?.payload["full_text"]
                == "That did not work. The get_local_time call failed: User declined the action.")
    }

    @Test(
        "Tool-result bodies are validated: missing fields and over-long values are 422",
        arguments: [
            #"{"idempotency_key": "k", "call_id": "c", "status": "success"}"#,
            #"{"turn_id": "t", "idempotency_key": "", "call_id": "c", "status": "success"}"#,
            #"{"turn_id": "t", "idempotency_key": "k", "call_id": "c", "status": "0123456789012345678901234567890123"}"#,
        ])
    func validation(body: String) async {
        let harness = BackendHarness()
        let session = await harness.createSession()
        #expect((await harness.post(session, "tool-results", body)).status == 422)
    }
}
