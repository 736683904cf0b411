import Foundation
import ResolveKitCore
import ResolveKitTesting
import Testing

@Suite(.timeLimit(.minutes(1)))
struct FaultPlanTests {
    @Test(
        "Endpoint patterns match one segment per star and an optional method",
        arguments: [
            (FaultPlan.Endpoint("POST", "/v1/sessions/*/tool-results"), "POST", "/v1/sessions/abc/tool-results", true),
            (FaultPlan.Endpoint("POST", "/v1/sessions/*/tool-results"), "GET", "/v1/sessions/abc/tool-results", false),
            (FaultPlan.Endpoint(nil, "/v1/sessions/*/events"), "GET", "/v1/sessions/a/b/events", false),
            (FaultPlan.Endpoint(nil, "/v1/sessions"), "post", "/v1/sessions", true),
        ])
    func patterns(endpoint: FaultPlan.Endpoint, method: String, path: String, matches: Bool) {
        #expect(endpoint.matches(method: method, path: path) == matches)
    }

    @Test(
        "An injected failure answers the real body the given number of times, then the endpoint recovers",
        arguments: [
            (503, "Internal Server Error"), (409, #"{"detail":"A turn is already in progress"}"#),
            (410, #"{"detail":"Session expired"}"#),
        ])
    func injectedFailure(status: Int, body: String) async {
        let faults = FaultPlan()
        let harness = BackendHarness(faults: faults)
        let session = await harness.createSession()
        faults.fail(.init("POST", "/v1/sessions/*/messages"), status: status, times: 2)
        for _ in 0..<2 {
            let reply = await harness.post(session, "messages", #"{"text": "hi", "request_id": "r"}"#)
            #expect(reply.status == status)
            #expect(reply.body == body)
        }
        #expect((await harness.post(session, "messages", #"{"text": "hi", "request_id": "r"}"#)).status == 202)
        await harness.backend.stop()
    }

    @Test("A delayed endpoint answers only after the delay passes on the backend's clock")
    func delay() async {
        let faults = FaultPlan()
        let harness = BackendHarness(faults: faults)
        faults.delay(.init("GET", "/health"), by: .seconds(5))
        let request = Task { await harness.send("GET", "/health", bearer: nil) }
        await harness.clock.waitForSleepers(count: 1)
        harness.clock.advance(by: .seconds(5))
        #expect(await request.value.status == 200)
    }

    @Test("A stalled endpoint answers once the stall is released")
    func stall() async {
        let faults = FaultPlan()
        let harness = BackendHarness(faults: faults)
        faults.stall(.init(nil, "/health"))
        let request = Task { await harness.send("GET", "/health", bearer: nil) }
        await faults.waitForStalledRequests(count: 1)
        faults.releaseStalls()
        #expect(await request.value.status == 200)
    }

    @Test("The stream is aborted after N events without the terminating chunk")
    func dropAfterEvents() async {
        let faults = FaultPlan()
        let harness = BackendHarness(faults: faults)
        let session = await harness.createSession()
        for text in ["a", "b", "c"] { harness.backend.sendHumanMessage(text, toSession: session.id) }
        faults.dropStream(.afterEvents(2))
        let (writer, pump) = await harness.openStream(session)
        await pump.value
        #expect(writer.wasAborted)
        #expect(writer.text.components(separatedBy: "event: human_message").count == 3)
        let (second, pumpAgain) = await harness.openStream(session)
        var chunks = second.chunks.makeAsyncIterator()
        for _ in 0..<4 { _ = await chunks.nextText() }
        #expect(!second.wasAborted)
        await harness.backend.stop()
        await pumpAgain.value
    }

    @Test("A byte-offset drop cuts the stream mid-frame")
    func dropMidFrame() async {
        let faults = FaultPlan()
        let harness = BackendHarness(faults: faults)
        let session = await harness.createSession()
        harness.backend.sendHumanMessage("hello", toSession: session.id)
        faults.dropStream(.atByteOffset(13 + 20))
        let (writer, pump) = await harness.openStream(session)
        await pump.value
        #expect(writer.wasAborted)
        #expect(writer.text.utf8.count == 33)
        #expect(writer.text.hasPrefix(": connected\n\nid: "))
    }

    @Test("Duplicated replay writes every replayed event twice, live events once")
    func duplicateReplay() async {
        let faults = FaultPlan()
        let harness = BackendHarness(faults: faults)
        let session = await harness.createSession()
        harness.backend.sendHumanMessage("old", toSession: session.id)
        faults.duplicateEventsOnReplay(true)
        let (writer, pump) = await harness.openStream(session)
        var chunks = writer.chunks.makeAsyncIterator()
        _ = await chunks.nextText()
        let first = await chunks.nextText()
        #expect(await chunks.nextText() == first)
        harness.backend.sendHumanMessage("new", toSession: session.id)
        #expect(Frame(await chunks.nextText() ?? "")?.payload["text"] == "new")
        await harness.backend.stop()
        #expect(await chunks.nextText() == nil)
        await pump.value
    }
}
