import ResolveKit
import ResolveKitTerminal
import ResolveKitTesting
import Testing

@Suite(.timeLimit(.minutes(1)))
struct LiveRegionOwnershipTests {
    @Test("A streaming draft leaves the checklist on the screen; later call updates are printed as lines")
    func draftAfterChecklist() async {
        let harness = Harness()
        let renderer = TranscriptRenderer(screen: harness.approver.screen)
        harness.terminal.type("a")
        _ = await harness.approver.decide(makeRequest([makeCall("c1", "get_host_status"), makeCall("c2", "g")]))
        renderer.show(.assistantDraft("Checking"))
        let done = ToolCallChecklistItem(
            id: "c1", functionName: "get_host_status", humanDescription: "", arguments: [:], requiresApproval: true,
            status: .completed)
        harness.approver.update(done)
        renderer.show(.messageAppended(ResolveKitChatMessage(id: "m", role: .assistant, text: "All fine.")))
        #expect(
            harness.terminal.screenLines == [
                "Tool calls · batch 1", "  ✓ get_host_status · approved", "  ✓ g · approved",
                "  ✔ get_host_status · done", "agent › All fine.",
            ])
    }

    @Test("Owners clear and commit only their own region")
    func ownership() {
        let terminal = FakeTerminal()
        let screen = TerminalScreen(terminal: terminal.io)
        let first = ObjectIdentifier(terminal)
        let second = ObjectIdentifier(screen)
        screen.showLive(["first"], owner: first)
        #expect(screen.ownsLive(first))
        screen.clearLive(owner: second)
        #expect(terminal.screenLines == ["first"])
        screen.showLive(["second"], owner: second)
        #expect(!screen.ownsLive(first))
        screen.clearLive(owner: first)
        #expect(terminal.screenLines == ["first", "second"])
        screen.clearLive(owner: second)
        #expect(terminal.screenLines == ["first"])
    }
}

@Suite(.timeLimit(.minutes(1)))
struct ConcurrentPromptTests {
    @Test("Batches presented at the same time are asked one after the other")
    func oneAtATime() async {
        let harness = Harness()
        async let first = harness.approver.decide(makeRequest([makeCall("c1", "f")]))
        await harness.terminal.waitForInputRequest()
        async let second = harness.approver.decide(makeRequest([makeCall("c2", "g", timeout: 20)], batch: 2))
        harness.clock.advance(to: .seconds(1))
        await harness.clock.waitForSleeper(at: .seconds(2))
        #expect(!harness.terminal.screen.contains("g · needs approval"))
        harness.terminal.type("a")
        #expect(await first.unattributed == .approveAll)
        await harness.terminal.waitForInputRequest()
        #expect(harness.terminal.screen.contains("g · needs approval"))
        harness.terminal.type("d")
        #expect(await second.unattributed == .declineAll(reason: "Declined at the terminal"))
    }

    @Test("A batch cancelled while waiting for the terminal returns without asking")
    func cancelledWhileWaiting() async {
        let harness = Harness()
        async let first = harness.approver.decide(makeRequest([makeCall("c1", "f")]))
        await harness.terminal.waitForInputRequest()
        let waiting = Task { await harness.approver.decide(makeRequest([makeCall("c2", "g")], batch: 2)) }
        waiting.cancel()
        #expect(await waiting.value.unattributed == .declineAll(reason: "Approval cancelled"))
        harness.terminal.type("a")
        #expect(await first.unattributed == .approveAll)
        #expect(harness.terminal.rawModeEntries == 1)
    }
}
