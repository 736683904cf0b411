import Foundation
import ResolveKitCore
import ResolveKitTesting
import Testing

/// The backend restarting in the middle of a turn, and the deployed (Redis) tool-result semantics.
@Suite(.timeLimit(.minutes(1)))
struct RestartMidTurnTests {
    static let oneCall = AgentScript(rules: [
        .init(.always, rounds: [.toolCalls([.init("get_local_time")]), .text("{result}")])
    ])

    @Test func aRestartLosesTheTurnAndItsCallsButKeepsTheEventsAndTheLock() async throws {
        let harness = BackendHarness(script: Self.oneCall, toolResultSemantics: .redis)
        let (session, turn, callID) = try await ToolResultTests.pendingCall(harness)
        #expect(harness.backend.restartMidTurn(lockHeldFor: .seconds(600)) == 1)
        await harness.backend.waitForIdleTurns()
        #expect(harness.backend.counters.turnsLostToRestarts == 1)

        // The call is no longer pending, but the session's lock is held: Redis answers 200 and ignores it.
        let late = await harness.answer(callID, turn: turn, in: session, result: #""10:42""#)
        #expect(late.body == #"{"status":"ok","deduplicated":false}"#)
        #expect(harness.backend.counters.toolResults[callID]?.notPending == 1)
        // The next message is refused while the lock lives.
        let busy = await harness.post(session, "messages", #"{"text": "again?", "request_id": "req-2"}"#)
        #expect(busy.status == 409)
        #expect(busy.body == #"{"detail":"A turn is already in progress"}"#)
        // The events written before the restart stay; no terminal event is ever written for the lost turn.
        let types = harness.backend.events(inSession: session.id).map(\.type)
        #expect(types == ["tool_call_request"])
        // The history shows the user's message last.
        let history = await harness.send(
            "GET", "/v1/sessions/\(session.id)/messages", capability: session.token)
        let messages = try JSONValue(parsing: history.body).arrayValue ?? []
        #expect(messages.last?["role"] == "user")

        // The lock expires on the backend's clock; then the next turn runs.
        let expiry = harness.clock.now.advanced(by: .seconds(600))
        await harness.clock.waitForSleeper(at: expiry)
        harness.clock.advance(to: expiry)
        var accepted = await harness.post(session, "messages", #"{"text": "again?", "request_id": "req-3"}"#)
        for _ in 0..<100 where accepted.status == 409 {
            await Task.yield()
            accepted = await harness.post(session, "messages", #"{"text": "again?", "request_id": "req-3"}"#)
        }
        #expect(accepted.status == 202)
        await harness.backend.stop()
    }

    @Test func theFaultPlanRestartsRightAfterTheNextRoundOfToolCalls() async throws {
        let faults = FaultPlan()
        faults.restartAfterNextToolCalls(lockHeldFor: .seconds(30))
        let harness = BackendHarness(script: Self.oneCall, faults: faults, toolResultSemantics: .redis)
        await harness.registerTranscriptFunctions()
        let session = await harness.createSession()
        _ = await harness.say("What time is it?", in: session)
        await harness.backend.waitForIdleTurns()
        #expect(harness.backend.counters.turnsLostToRestarts == 1)
        #expect(harness.backend.events(inSession: session.id).map(\.type) == ["tool_call_request"])
        let busy = await harness.post(session, "messages", #"{"text": "again?", "request_id": "req-2"}"#)
        #expect(busy.status == 409)
        await harness.backend.stop()
    }

    @Test func aDuplicateResultRightAfterItsTurnEndedIsDeduplicatedForSixHundredSeconds() async throws {
        let harness = BackendHarness(script: Self.oneCall, toolResultSemantics: .redis)
        let (session, turn, callID) = try await ToolResultTests.pendingCall(harness)
        let first = await harness.answer(callID, turn: turn, in: session, result: #""10:42""#, key: "k1")
        #expect(first.body == #"{"status":"ok","deduplicated":false}"#)
        await harness.backend.waitForIdleTurns()
        let again = await harness.answer(callID, turn: turn, in: session, result: #""10:42""#, key: "k1")
        #expect(again.body == #"{"status":"ok","deduplicated":true}"#)
        harness.wallClock.advance(seconds: 601)
        let expired = await harness.answer(callID, turn: turn, in: session, result: #""10:42""#, key: "k1")
        #expect(expired.status == 404)
        #expect(expired.body == #"{"detail":"No pending tool call with this ID"}"#)
        await harness.backend.stop()
    }

    @Test func theDeployedSemanticsAreTheDefault() {
        #expect(ReferenceBackend.Configuration().toolResultSemantics == .redis)
    }
}
