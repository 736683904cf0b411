import ResolveKit
import ResolveKitTerminal
import ResolveKitTesting
import Synchronization
import Testing

@Suite(.timeLimit(.minutes(1)))
struct TerminalApproverTests {
    private let calls = [
        makeCall("c1", "get_host_status", arguments: ["verbose": true], description: "I will check the load."),
        makeCall("c2", "read_log_tail", arguments: ["unit": "nginx", "lines": 50], description: "I will read logs."),
        makeCall("c3", "list_processes", description: "I will list processes."),
    ]

    @Test("The prompt shows each call's function, description, arguments, approval need and countdown")
    func showsTheBatch() async {
        let harness = Harness()
        async let decision = harness.approver.decide(makeRequest(calls))
        await harness.terminal.waitForInputRequest()
        let screen = harness.terminal.screen
        #expect(screen.contains("Approve 3 tool calls?"))
        #expect(screen.contains("get_host_status · needs approval · 0:30 left"))
        #expect(screen.contains("I will read logs."))
        #expect(screen.contains("\"unit\": \"nginx\""))
        #expect(screen.contains("a approve all · d decline all"))
        harness.terminal.type("a")
        _ = await decision
    }

    @Test("a approves the whole batch and the checklist says so")
    func approveAll() async {
        let harness = Harness()
        harness.terminal.type("a")
        #expect(await harness.approver.decide(makeRequest(calls)).unattributed == .approveAll)
        #expect(harness.terminal.screen.contains("✓ read_log_tail · approved"))
        #expect(!harness.terminal.screen.contains("Approve 3 tool calls?"))
    }

    @Test("d declines the whole batch with the terminal's reason")
    func declineAll() async {
        let harness = Harness()
        harness.terminal.type("d")
        #expect(await harness.approver.decide(makeRequest(calls)).unattributed == .declineAll(reason: "Declined at the terminal"))
        #expect(harness.terminal.screen.contains("✗ get_host_status · declined: Declined at the terminal"))
    }

    @Test("Choosing per call with arrows, j/k and space approves exactly the ticked calls")
    func perCall() async {
        let harness = Harness()
        async let decision = harness.approver.decide(makeRequest(calls))
        harness.terminal.type("c")
        harness.terminal.type(" ")
        harness.terminal.send(FakeTerminal.arrowDown)
        harness.terminal.type("j")
        harness.terminal.type(" ")
        harness.terminal.send(FakeTerminal.arrowUp)
        await harness.terminal.waitForInputRequest()
        let screen = harness.terminal.screenLines
        #expect(screen.contains { $0.contains("[x] get_host_status") })
        #expect(screen.contains { $0.hasPrefix("› [ ] read_log_tail") })
        #expect(screen.contains { $0.contains("[x] list_processes") })
        #expect(screen.contains { $0.contains("space toggle") })
        harness.terminal.send(FakeTerminal.enter)
        #expect(
            await decision.unattributed
                == .perCall(["c1": .approve, "c2": .decline(reason: "Declined at the terminal"), "c3": .approve]))
    }

    @Test("v prints the selected call's arguments in full above the prompt")
    func viewArguments() async {
        let long = String(repeating: "0123456789", count: 20)
        let harness = Harness()
        async let decision = harness.approver.decide(
            makeRequest([makeCall("c1", "write_file", arguments: ["content": .string(long)])]))
        await harness.terminal.waitForInputRequest()
        #expect(harness.terminal.screen.contains("… (+140 chars)"))
        #expect(!harness.terminal.output.contains(long))
        harness.terminal.type("v")
        await harness.terminal.waitForInputRequest()
        #expect(harness.terminal.screen.contains("Arguments of write_file (c1):"))
        #expect(harness.terminal.screen.replacing("\n", with: "").contains(long))
        #expect(harness.terminal.screen.contains("Approve 1 tool call?"))
        harness.terminal.type("d")
        _ = await decision
    }

    @Test("? prints the key help and the prompt keeps waiting")
    func help() async {
        let harness = Harness()
        async let decision = harness.approver.decide(makeRequest(calls))
        harness.terminal.type("?")
        await harness.terminal.waitForInputRequest()
        #expect(harness.terminal.screen.contains("Ctrl-C     decline every call, then quit"))
        #expect(harness.terminal.screen.contains("Ctrl-D, end of input   decline every call"))
        harness.terminal.type("a")
        #expect(await decision.unattributed == .approveAll)
    }

    @Test("s allows a function for the session: later batches calling only it are approved without a word")
    func sessionAllow() async {
        let harness = Harness()
        harness.terminal.type("s")
        #expect(await harness.approver.decide(makeRequest([makeCall("c1", "get_host_status")])).unattributed == .approveAll)
        #expect(harness.approver.allowedFunctions(sessionID: "session-1") == ["get_host_status"])
        let before = harness.terminal.output
        let second = makeRequest([makeCall("c4", "get_host_status"), makeCall("c5", "get_host_status")], batch: 2)
        #expect(await harness.approver.decide(second).unattributed == .approveAll)
        #expect(harness.terminal.output == before)
        #expect(harness.terminal.rawModeEntries == 1)
    }

    @Test("A session-wide allow does not carry over to another session")
    func sessionAllowIsPerSession() async {
        let harness = Harness()
        harness.terminal.type("s")
        _ = await harness.approver.decide(makeRequest([makeCall("c1", "get_host_status")]))
        harness.terminal.type("d")
        let other = makeRequest([makeCall("c2", "get_host_status")], session: "session-2")
        #expect(await harness.approver.decide(other).unattributed == .declineAll(reason: "Declined at the terminal"))
    }

    @Test(
        "Ctrl-C, Ctrl-D and the end of input decline the batch and restore the terminal",
        arguments: [FakeTerminal.controlC, FakeTerminal.controlD, []])
    func interruptions(bytes: [UInt8]) async {
        let harness = Harness()
        if bytes.isEmpty { harness.terminal.endInput() } else { harness.terminal.send(bytes) }
        #expect(await harness.approver.decide(makeRequest(calls)).unattributed == .declineAll(reason: "Declined at the terminal"))
        #expect(!harness.terminal.isInRawMode)
        #expect(harness.terminal.rawModeEntries == 1)
    }

    @Test(
        "Ctrl-C at a prompt asks the host to quit after declining; Ctrl-D and the end of input only decline",
        arguments: [(FakeTerminal.controlC, 1), (FakeTerminal.controlD, 0), ([], 0)])
    func onlyCtrlCAsksTheHostToQuit(bytes: [UInt8], interrupts: Int) async {
        let count = Mutex(0)
        let harness = Harness(onInterrupt: { count.withLock { $0 += 1 } })
        if bytes.isEmpty { harness.terminal.endInput() } else { harness.terminal.send(bytes) }
        let decision = await harness.approver.decide(makeRequest(calls))
        #expect(decision.unattributed == .declineAll(reason: "Declined at the terminal"))
        #expect(count.withLock { $0 } == interrupts)
    }

    @Test("After the decision the checklist follows the calls in place: running, done, failed, declined")
    func checklistUpdates() async {
        let harness = Harness()
        async let decision = harness.approver.decide(makeRequest(calls))
        harness.terminal.type("c")
        harness.terminal.type(" ")
        harness.terminal.type("j")
        harness.terminal.type(" ")
        harness.terminal.send(FakeTerminal.enter)
        _ = await decision
        func item(_ id: String, _ function: String, _ status: ToolCallChecklistItem.Status) -> ToolCallChecklistItem {
            ToolCallChecklistItem(
                id: ToolCallID(id), functionName: function, humanDescription: "", arguments: [:], requiresApproval: true,
                status: status)
        }
        harness.approver.update(item("c1", "get_host_status", .running))
        #expect(harness.terminal.screen.contains("▶ get_host_status · running"))
        harness.approver.update(item("c1", "get_host_status", .completed))
        harness.approver.update(item("c2", "read_log_tail", .failed("Permission denied")))
        harness.approver.update(item("c3", "list_processes", .cancelled(reason: "Declined at the terminal")))
        harness.approver.update(item("zz", "unrelated", .completed))
        let screen = harness.terminal.screenLines
        #expect(screen.filter { $0.contains("Tool calls · batch 1") }.count == 1)
        #expect(screen.contains("  ✔ get_host_status · done"))
        #expect(screen.contains("  ✗ read_log_tail · failed: Permission denied"))
        #expect(screen.contains("  ✗ list_processes · declined: Declined at the terminal"))
        #expect(!harness.terminal.screen.contains("running"))
    }
}
