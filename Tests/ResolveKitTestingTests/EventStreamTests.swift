import Foundation
import ResolveKitCore
import ResolveKitTesting
import Testing

@Suite(.timeLimit(.minutes(1)))
struct EventStreamTests {
    // Transcript §A, with the random turn and call ids replaced by placeholders.
    static let toolCallFrame = #"""
        id: 1795312329875-0
        event: tool_call_request
        data: {"event_id": "1795312329875-0", "turn_id": "TURN", "request_id": "req-A1", "timestamp": "2026-11-22T01:52:09.875427+00:00", "type": "tool_call_request", "payload": {"call_id": "CALL", "function_name": "get_local_time", "arguments": {}, "timeout_seconds": 30, "human_description": "I will get local time for you.", "requires_approval": false}}


        """#
    static let turnCompleteFrame = #"""
        id: 1795312329949-0
        event: turn_complete
        data: {"event_id": "1795312329949-0", "turn_id": "TURN", "request_id": "req-A1", "timestamp": "2026-11-22T01:52:09.949685+00:00", "type": "turn_complete", "payload": {"full_text": "Done. The get_local_time returned \"10:42 AM (Europe/Vilnius)\".", "usage": {"prompt_tokens": 660, "completion_tokens": 7}}}


        """#

    @Test(
        "The stream sends the transcript's headers, `: connected`, and a tool_call_request and turn_complete byte for byte"
    )
    func transcriptFrames() async throws {
        let harness = BackendHarness()
        await harness.registerTranscriptFunctions()
        let session = await harness.createSession()
        let reply = await harness.send("GET", "/v1/sessions/\(session.id)/events", capability: session.token)
        #expect(reply.status == 200)
        #expect(reply.header("content-type") == "text/event-stream; charset=utf-8")
        #expect(reply.header("cache-control") == "no-cache")
        #expect(reply.header("x-accel-buffering") == "no")
        let (writer, pump) = await harness.openStream(session)
        var chunks = writer.chunks.makeAsyncIterator()
        #expect(await chunks.nextText() == ": connected\n\n")

        harness.wallClock.set(Date(timeIntervalSince1970: 1_795_312_329.875427))
        let turn = await harness.say("What time is it?", in: session, requestID: "req-A1")
        let toolCall = try #require(await chunks.nextText())
        let callID = try #require(Frame(toolCall)?.payload["call_id"]?.stringValue)
        #expect(callID.count == 29 && callID.hasPrefix("call_"))
        #expect(
            toolCall
                == Self.toolCallFrame.replacingOccurrences(of: "TURN", with: turn).replacingOccurrences(
                    of: "CALL", with: callID))

        harness.wallClock.set(Date(timeIntervalSince1970: 1_795_312_329.949685))
        #expect(
            (await harness.answer(callID, turn: turn, in: session, result: #""10:42 AM (Europe/Vilnius)""#)).status
                == 200)
        #expect(await chunks.nextText() == Self.turnCompleteFrame.replacingOccurrences(of: "TURN", with: turn))
        let feedback = try #require(await chunks.nextText())
        #expect(
            feedback
                == #"id: 1795312329949-1\#nevent: feedback_requested\#ndata: {"event_id": "1795312329949-1", "turn_id": "\#(turn)", "request_id": "req-A1", "timestamp": "2026-11-22T01:52:09.949685+00:00", "type": "feedback_requested", "payload": {"immediate": false}}\#n\#n"#
        )
        writer.disconnect()
        await harness.backend.stop()
        await pump.value
    }

    @Test("Non-ASCII text is escaped as \\uXXXX in the data line, as Python's json.dumps does")
    func asciiOnly() async throws {
        let harness = BackendHarness()
        let session = await harness.createSession()
        harness.backend.sendHumanMessage("Grüße 👋", toSession: session.id)
        let frame = try #require(harness.backend.events(inSession: session.id).first?.frame)
        #expect(frame.contains(#""text": "Gr\u00fc\u00dfe \ud83d\udc4b"}"#))
        #expect(frame.utf8.allSatisfy { $0 < 0x80 })
    }

    @Test("A cursor replays exactly the events after it, no cursor replays all, and Last-Event-ID is ignored")
    func replay() async throws {
        let harness = BackendHarness()
        let session = await harness.createSession()
        for text in ["one", "two"] {
            harness.backend.sendHumanMessage(text, toSession: session.id)
            harness.wallClock.advance(seconds: 0.01)
        }
        let ids = harness.backend.events(inSession: session.id).map(\.id)
        #expect(ids.count == 2)

        let (afterFirst, pumpA) = await harness.openStream(session, query: "?cursor=\(ids[0])")
        var chunks = afterFirst.chunks.makeAsyncIterator()
        #expect(await chunks.nextText() == ": connected\n\n")
        #expect(Frame(await chunks.nextText() ?? "")?.id == ids[1])

        let reply = await harness.send(
            "GET", "/v1/sessions/\(session.id)/events", capability: session.token, headers: [("Last-Event-ID", ids[1])])
        let everything = RecordingBodyWriter()
        let pumpB = Task {
            try? await reply.stream?(everything)
            everything.finish()
        }
        var all = everything.chunks.makeAsyncIterator()
        _ = await all.nextText()
        #expect(Frame(await all.nextText() ?? "")?.id == ids[0])
        #expect(Frame(await all.nextText() ?? "")?.id == ids[1])
        await harness.backend.stop()
        await pumpA.value
        await pumpB.value
    }

    @Test("An idle stream gets `: keep-alive` after each keep-alive interval and is finished cleanly at the cap")
    func keepAliveAndCap() async {
        let harness = BackendHarness(streamCap: .seconds(20))
        let session = await harness.createSession()
        let (writer, pump) = await harness.openStream(session)
        var chunks = writer.chunks.makeAsyncIterator()
        #expect(await chunks.nextText() == ": connected\n\n")
        await harness.clock.waitForSleepers(count: 1)
        harness.clock.advance(by: .seconds(15))
        #expect(await chunks.nextText() == ": keep-alive\n\n")
        await harness.clock.waitForSleepers(count: 1)
        harness.clock.advance(by: .seconds(5))
        #expect(await chunks.nextText() == nil)
        await pump.value
        #expect(!writer.wasAborted)
        #expect(harness.backend.counters.openStreams == 0)
    }

    @Test("Pre-stream checks answer JSON errors: 410 for an escalated session")
    func goneSession() async {
        let harness = BackendHarness()
        let session = await harness.createSession()
        harness.backend.takeOverSession(session.id)
        let reply = await harness.send("GET", "/v1/sessions/\(session.id)/events", capability: session.token)
        #expect(reply.status == 410)
        #expect(reply.body == #"{"detail":"Session expired"}"#)
    }

    @Test("In numeric mode a restart renumbers from 1 and an old, higher cursor withholds the new events")
    func numericRestart() async throws {
        let harness = BackendHarness(eventIDStyle: .numeric)
        let session = await harness.createSession()
        for text in ["a", "b", "c"] { harness.backend.sendHumanMessage(text, toSession: session.id) }
        let retained = harness.backend.events(inSession: session.id)
        #expect(retained.map(\.id) == ["1", "2", "3"])
        // What the restart drops comes back from it, so a test can account for every event emitted up to then.
        let forgotten = harness.backend.restartEventNumbering()
        #expect(forgotten[session.id.lowercased()] == retained)
        harness.backend.sendHumanMessage("after restart", toSession: session.id)
        #expect(harness.backend.events(inSession: session.id).map(\.id) == ["1"])

        let (writer, pump) = await harness.openStream(session, query: "?cursor=3")
        var chunks = writer.chunks.makeAsyncIterator()
        _ = await chunks.nextText()
        for text in ["x", "y", "z"] { harness.backend.sendHumanMessage(text, toSession: session.id) }
        #expect(Frame(await chunks.nextText() ?? "")?.id == "4")
        await harness.backend.stop()
        await pump.value
    }

    @Test("The session_escalated and human_message payloads have the real field order")
    func dashboardPayloads() async {
        let harness = BackendHarness()
        let session = await harness.createSession()
        harness.backend.takeOverSession(session.id, reason: "User asked for a human agent")
        harness.backend.resolveSession(session.id)
        let frames = harness.backend.events(inSession: session.id).map(\.frame)
        #expect(
            frames[0].hasSuffix(
                #""type": "session_escalated", "payload": {"reason": "User asked for a human agent"}}"# + "\n\n"))
        #expect(frames[1].hasSuffix(#""type": "feedback_requested", "payload": {"immediate": true}}"# + "\n\n"))
        #expect(harness.backend.status(ofSession: session.id) == .closed)
    }
}
