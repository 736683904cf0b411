import ResolveKit
import ResolveKitTerminal
import ResolveKitTesting
import Testing

@Suite(.timeLimit(.minutes(1)))
struct TerminalApproverTimingTests {
    @Test("The countdown is redrawn in place every second of the injected clock")
    func countdown() async {
        let harness = Harness()
        async let decision = harness.approver.decide(makeRequest([makeCall("c1", "get_host_status", timeout: 30)]))
        await harness.clock.waitForSleeper(at: .seconds(1))
        #expect(harness.terminal.screen.contains("0:30 left"))
        harness.clock.advance(to: .seconds(1))
        await harness.clock.waitForSleeper(at: .seconds(2))
        #expect(harness.terminal.screen.contains("0:29 left"))
        harness.clock.advance(to: .seconds(2))
        await harness.clock.waitForSleeper(at: .seconds(3))
        #expect(harness.terminal.screen.contains("0:28 left"))
        #expect(!harness.terminal.screen.contains("0:29 left"))
        #expect(harness.terminal.screenLines.filter { $0.contains("Approve 1 tool call?") }.count == 1)
        harness.terminal.type("a")
        #expect(await decision.unattributed == .approveAll)
    }

    @Test("A narrower window is picked up on the next tick and the prompt rewraps to it")
    func resize() async {
        let harness = Harness(columns: 100)
        let description = String(repeating: "careful words ", count: 12)
        async let decision = harness.approver.decide(makeRequest([makeCall("c1", "f", description: description)]))
        await harness.clock.waitForSleeper(at: .seconds(1))
        harness.terminal.resize(columns: 40, rows: 40)
        harness.clock.advance(to: .seconds(1))
        await harness.clock.waitForSleeper(at: .seconds(2))
        let prompt = harness.terminal.screenLines.drop { !$0.contains("Approve 1 tool call?") }
        #expect(!prompt.isEmpty)
        #expect(prompt.allSatisfy { $0.count < 40 })
        harness.terminal.type("d")
        _ = await decision
    }

    @Test("Cancelling the decision returns promptly and restores the terminal")
    func cancellation() async {
        let harness = Harness()
        let task = Task { await harness.approver.decide(makeRequest([makeCall("c1", "f")])) }
        await harness.terminal.waitForInputRequest()
        #expect(harness.terminal.isInRawMode)
        task.cancel()
        _ = await task.value
        #expect(!harness.terminal.isInRawMode)
        #expect(!harness.terminal.screen.contains("Approve 1 tool call?"))
    }

    @Test("A call whose deadline passes shows as timed out when the runtime gives up")
    func timeout() async throws {
        let harness = Harness()
        let request = makeRequest([makeCall("c1", "f", timeout: 3), makeCall("c2", "g", timeout: 60)])
        let task = Task { await harness.approver.decide(request) }
        for second in 1...3 {
            await harness.clock.waitForSleeper(at: .seconds(second))
            harness.clock.advance(to: .seconds(second))
        }
        await harness.clock.waitForSleeper(at: .seconds(4))
        #expect(harness.terminal.screen.contains("f · needs approval · timed out"))
        #expect(harness.terminal.screen.contains("g · needs approval · 0:57 left"))
        task.cancel()
        _ = await task.value
        #expect(harness.terminal.screen.contains("⌛ f timed out waiting for approval"))
    }

    @Test("When every call's deadline passes the prompt declines them itself")
    func allTimedOut() async {
        let harness = Harness()
        async let decision = harness.approver.decide(makeRequest([makeCall("c1", "f", timeout: 1)]))
        await harness.clock.waitForSleeper(at: .seconds(1))
        harness.clock.advance(to: .seconds(1))
        #expect(await decision.unattributed == .declineAll(reason: "Approval timed out"))
        #expect(harness.terminal.screen.contains("⌛ f · timed out"))
    }
}
