import ResolveKitCore
import ResolveKitTesting
import Testing

@Suite(.timeLimit(.minutes(1)))
struct TurnTests {
    static let twoCalls = AgentScript(rules: [
        .init(
            .keywords(["both"]),
            rounds: [
                .toolCalls([
                    .init("get_local_time", humanDescription: "I will check the time."),
                    .init("set_lights", arguments: ["room": "kitchen", "on": true]),
                ]),
                .text("First {name1} gave {result1}; then {name2} gave {result2}."),
            ])
    ])

    @Test("A turn with two tool calls emits both requests back-to-back and completes quoting both results")
    func twoToolCalls() async throws {
        let harness = BackendHarness(script: Self.twoCalls)
        await harness.registerTranscriptFunctions()
        let session = await harness.createSession()
        let (writer, pump) = await harness.openStream(session)
        var chunks = writer.chunks.makeAsyncIterator()
        _ = await chunks.nextText()
        let turn = await harness.say("do both", in: session)
        let first = try #require(Frame(await chunks.nextText() ?? ""))
        let second = try #require(Frame(await chunks.nextText() ?? ""))
        #expect(first.payload["function_name"] == "get_local_time")
        #expect(first.payload["human_description"] == "I will check the time.")
        #expect(second.payload["function_name"] == "set_lights")
        #expect(second.payload["arguments"] == ["on": true, "room": "kitchen"])
        #expect(second.payload["timeout_seconds"] == 60)
        #expect(second.payload["requires_approval"] == true)
        #expect(second.payload["human_description"] == "I will run set_lights")
        #expect(second.envelope["turn_id"]?.stringValue == turn)

        let secondID = try #require(second.payload["call_id"]?.stringValue)
        let firstID = try #require(first.payload["call_id"]?.stringValue)
        #expect(
            (await harness.answer(secondID, turn: turn, in: session, result: #"{"ok": true, "room": "kitchen"}"#))
                .status == 200)
        #expect((await harness.answer(firstID, turn: turn, in: session, result: #""10:42""#)).status == 200)
        let complete = try #require(Frame(await chunks.nextText() ?? ""))
        #expect(complete.type == "turn_complete")
        #expect(
            complete.payload["full_text"]
                == "First get_local_time gave 10:42; then set_lights gave ok: yes\nroom: kitchen.")
        #expect(Frame(await chunks.nextText() ?? "")?.type == "feedback_requested")
        await harness.backend.waitForIdleTurns()
        let counters = harness.backend.counters
        #expect(counters.toolResults[firstID] == .init(accepted: 1))
        #expect(counters.toolResults[secondID] == .init(accepted: 1))
        #expect(counters.turnsStarted == 1 && counters.turnsEnded == 1)
        #expect(counters.toolCallsEmitted == 2)
        await harness.backend.stop()
        await pump.value
    }

    @Test(
        "An unanswered call times out after its registered timeout, the model gets the timeout error, no event is sent")
    func timeout() async throws {
        let harness = BackendHarness()
        await harness.registerTranscriptFunctions()
        let session = await harness.createSession()
        let turn = await harness.say("What time is it?", in: session)
        await harness.clock.waitForSleepers(count: 1)
        harness.clock.advance(by: .seconds(29))
        #expect(harness.clock.sleeperCount == 1)
        harness.clock.advance(by: .seconds(1))
        await harness.backend.waitForIdleTurns()
        let events = harness.backend.events(inSession: session.id)
        #expect(events.map(\.type) == ["tool_call_request", "turn_complete", "feedback_requested"])
        let complete = try #require(Frame(events[1].frame))
        #expect(
            complete.payload["full_text"]
                == "That did not work. The get_local_time call failed: Function 'get_local_time' timed out after 30s.")
        #expect(harness.backend.counters.toolCallsTimedOut == 1)
        let callID = try #require(Frame(events[0].frame)?.payload["call_id"]?.stringValue)
        let late = await harness.answer(callID, turn: turn, in: session, result: "1")
        #expect(late.status == 404)
        #expect(late.body == #"{"detail":"No pending tool call with this ID"}"#)
    }

    @Test("While a turn runs another request id is 409 and the same request id returns the original turn id")
    func oneTurnAtATime() async {
        let harness = BackendHarness()
        await harness.registerTranscriptFunctions()
        let session = await harness.createSession()
        let turn = await harness.say("What time is it?", in: session, requestID: "req-A1")
        #expect(await harness.say("What time is it?", in: session, requestID: "req-A1") == turn)
        let busy = await harness.post(session, "messages", #"{"text": "another one", "request_id": "req-A1b"}"#)
        #expect(busy.status == 409)
        #expect(busy.body == #"{"detail":"A turn is already in progress"}"#)
        #expect(harness.backend.counters.turnsStarted == 1)
        await harness.backend.stop()
    }

    @Test(
        "Asking for a human escalates the session: session_escalated, then 410 on messages and events, history still readable"
    )
    func escalation() async {
        let harness = BackendHarness()
        let session = await harness.createSession()
        await harness.say("I want to talk to a human", in: session)
        await harness.backend.waitForIdleTurns()
        #expect(harness.backend.events(inSession: session.id).map(\.type) == ["session_escalated"])
        #expect(harness.backend.status(ofSession: session.id) == .escalated)
        let message = await harness.post(session, "messages", #"{"text": "hello?", "request_id": "req-D6"}"#)
        #expect(message.status == 410)
        #expect(message.body == #"{"detail":"Session expired"}"#)
        #expect(
            (await harness.send("GET", "/v1/sessions/\(session.id)/events", capability: session.token)).status == 410)
        let history = await harness.send("GET", "/v1/sessions/\(session.id)/messages", capability: session.token)
        #expect(history.json.arrayValue?.map { $0["role"]?.stringValue ?? "" } == ["assistant", "user"])
    }

    @Test(
        "Scripted outcomes end the turn with the real events",
        arguments: [
            ("simulate llm error please", ["error"]),
            ("simulate provider auth error", ["error"]),
            ("Tell me an off-topic joke", ["turn_complete"]),
            ("hello there", ["turn_complete", "feedback_requested"]),
        ])
    func outcomes(text: String, types: [String]) async {
        let harness = BackendHarness()
        let session = await harness.createSession()
        await harness.say(text, in: session)
        await harness.backend.waitForIdleTurns()
        #expect(harness.backend.events(inSession: session.id).map(\.type) == types)
    }

    @Test("The llm_error event carries the transcript's payload")
    func llmErrorPayload() async throws {
        let harness = BackendHarness()
        let session = await harness.createSession()
        await harness.say("simulate llm error please", in: session)
        await harness.backend.waitForIdleTurns()
        let frame = try #require(harness.backend.events(inSession: session.id).first?.frame)
        #expect(
            frame.hasSuffix(
                #""payload": {"code": "llm_error", "message": "Assistant is temporarily unavailable. Please try again.", "recoverable": true}}"#
                    + "\n\n"))
    }

    @Test("A rejection completes with usage null and asks for no feedback")
    func rejection() async throws {
        let harness = BackendHarness()
        let session = await harness.createSession()
        await harness.say("Tell me an off-topic joke", in: session)
        await harness.backend.waitForIdleTurns()
        let frame = try #require(harness.backend.events(inSession: session.id).first?.frame)
        #expect(
            frame.hasSuffix(
                #""payload": {"full_text": "Sorry, I can only help with this app.", "usage": null}}"# + "\n\n"))
    }

    @Test("An empty reply ends the turn with no event and releases the lock")
    func emptyReply() async {
        let harness = BackendHarness(script: AgentScript(rules: [], fallback: [.empty]))
        let session = await harness.createSession()
        await harness.say("anything", in: session)
        await harness.backend.waitForIdleTurns()
        #expect(harness.backend.events(inSession: session.id).isEmpty)
        #expect(harness.backend.counters.turnsEnded == 1)
        #expect((await harness.post(session, "messages", #"{"text": "again", "request_id": "req-2"}"#)).status == 202)
        await harness.backend.stop()
    }

    @Test("Reaching the tool-round limit escalates with the real reason")
    func roundLimit() async throws {
        let script = AgentScript(rules: [], fallback: [.toolCalls([.init("get_local_time")]), .text("never")])
        let harness = BackendHarness(script: script, maxToolRounds: 1)
        await harness.registerTranscriptFunctions()
        let session = await harness.createSession()
        let turn = await harness.say("time", in: session)
        await harness.clock.waitForSleepers(count: 1)
        let callID = try #require(
            Frame(harness.backend.events(inSession: session.id)[0].frame)?.payload["call_id"]?.stringValue)
        await harness.answer(callID, turn: turn, in: session, result: "1")
        await harness.backend.waitForIdleTurns()
        let last = try #require(harness.backend.events(inSession: session.id).last?.frame)
        #expect(last.contains(#""payload": {"reason": "Maximum tool calling rounds exceeded"}"#))
        #expect(harness.backend.status(ofSession: session.id) == .escalated)
    }

    @Test("A call to an ineligible function gets a server-side error and no event")
    func ineligibleFunction() async {
        let script = AgentScript(rules: [
            .init(
                .always, rounds: [.toolCalls([.init("set_lights")]), .text("{result}")],
                requiresEligibleFunctions: false)
        ])
        let harness = BackendHarness(script: script)
        await harness.registerTranscriptFunctions()
        let session = await harness.createSession(functions: ["get_local_time"])
        await harness.say("lights", in: session)
        await harness.backend.waitForIdleTurns()
        let events = harness.backend.events(inSession: session.id)
        #expect(events.map(\.type) == ["turn_complete", "feedback_requested"])
        #expect(Frame(events[0].frame)?.payload["full_text"] == "failed: Function 'set_lights' is not available")
    }

    @Test("Text deltas arrive before the final text with the accumulated draft")
    func deltas() async {
        let harness = BackendHarness(
            script: AgentScript(rules: [], fallback: [.text("Hello world", deltas: ["Hello", " world"])]))
        let session = await harness.createSession()
        await harness.say("hi", in: session)
        await harness.backend.waitForIdleTurns()
        let events = harness.backend.events(inSession: session.id)
        #expect(
            events.map(\.type) == [
                "assistant_text_delta", "assistant_text_delta", "turn_complete", "feedback_requested",
            ])
        #expect(Frame(events[1].frame)?.payload == ["delta": " world", "accumulated": "Hello world"])
    }

    @Test("The default script skips a rule whose function the session does not allow and answers in plain text")
    func defaultScriptFallsBack() async {
        let harness = BackendHarness()
        let session = await harness.createSession(functions: [])
        await harness.say("What time is it?", in: session)
        await harness.backend.waitForIdleTurns()
        let events = harness.backend.events(inSession: session.id)
        #expect(
            Frame(events.first?.frame ?? "")?.payload["full_text"]
                == #"This is the reference backend answering: "What time is it?"."#)
    }

    @Test("Stopping the backend cancels a turn waiting for a tool result and finishes open streams cleanly")
    func stopCancelsTurns() async {
        let harness = BackendHarness()
        await harness.registerTranscriptFunctions()
        let session = await harness.createSession()
        let (writer, pump) = await harness.openStream(session)
        await harness.say("What time is it?", in: session)
        await harness.clock.waitForSleepers(count: 2)
        await harness.backend.stop()
        await pump.value
        #expect(!writer.wasAborted)
        let counters = harness.backend.counters
        #expect(counters.turnsEnded == 1)
        #expect(counters.toolCallsTimedOut == 0)
        #expect(counters.openStreams == 0)
        #expect(harness.backend.events(inSession: session.id).map(\.type) == ["tool_call_request"])
    }
}
