import ResolveKit
import Testing

@testable import ResolveKitTerminalCore
import ResolveKitTerminal

struct ApprovalPromptStateMachineTests {
    private func prompt(_ calls: [ToolApprovalRequest.Call], allowed: Set<String> = []) -> ApprovalPrompt {
        ApprovalPrompt(request: makeRequest(calls), now: .zero, width: 100, allowedFunctions: allowed)
    }

    private let twoCalls = [makeCall("c1", "get_host_status"), makeCall("c2", "read_log_tail")]

    @Test(
        "A key that decides the whole batch gives every call the same verdict",
        arguments: [
            (Key.character("a"), ApprovalPrompt.Verdict.approved(via: .terminal)),
            (.character("d"), .declined(reason: "Declined at the terminal", via: .terminal)),
            (.controlC, .declined(reason: "Declined at the terminal", via: .interrupt)),
            (.controlD, .declined(reason: "Declined at the terminal", via: .endOfInput)),
        ])
    func batchKeys(key: Key, verdict: ApprovalPrompt.Verdict) {
        var machine = prompt(twoCalls)
        guard case .finish(let outcome) = machine.key(key) else {
            Issue.record("the prompt did not finish")
            return
        }
        #expect(outcome.verdicts == ["c1": verdict, "c2": verdict])
        #expect(machine.key(.character("a")) == .none)
    }

    @Test("Choosing per call approves the ticked calls and declines the rest")
    func perCall() {
        var machine = prompt(twoCalls + [makeCall("c3", "list_processes")])
        for key in [Key.character("c"), .character(" "), .down, .character("j"), .character(" "), .up] {
            _ = machine.key(key)
        }
        guard case .finish(let outcome) = machine.key(.enter) else {
            Issue.record("enter did not confirm")
            return
        }
        #expect(outcome.verdicts["c1"] == .approved(via: .terminal))
        #expect(outcome.verdicts["c2"] == .declined(reason: "Declined at the terminal", via: .terminal))
        #expect(outcome.verdicts["c3"] == .approved(via: .terminal))
    }

    @Test("Enter outside the per-call mode does nothing, and escape leaves that mode")
    func enterAndEscape() {
        var machine = prompt(twoCalls)
        #expect(machine.key(.enter) == .none)
        _ = machine.key(.character("c"))
        guard case .render(let frame) = machine.key(.escape) else {
            Issue.record("escape did not redraw")
            return
        }
        #expect(!frame.lines.map(\.plainText).joined().contains("[ ]"))
    }

    @Test("Allowing a function for the session approves its calls and keeps asking about the others")
    func sessionAllow() {
        var machine = prompt(twoCalls + [makeCall("c3", "get_host_status")])
        guard case .render = machine.key(.character("s")) else {
            Issue.record("the prompt finished with a call still open")
            return
        }
        guard case .finish(let outcome) = machine.key(.character("d")) else {
            Issue.record("d did not finish")
            return
        }
        #expect(outcome.sessionAllowedFunctions == ["get_host_status"])
        #expect(outcome.verdicts["c1"] == .approved(via: .terminal))
        #expect(outcome.verdicts["c3"] == .approved(via: .terminal))
        #expect(outcome.verdicts["c2"] == .declined(reason: "Declined at the terminal", via: .terminal))
    }

    @Test("Calls to functions already allowed start approved and need no question when all are")
    func preAllowed() {
        let machine = prompt(twoCalls, allowed: ["get_host_status", "read_log_tail"])
        #expect(machine.isDecided)
        #expect(machine.outcome.verdicts["c1"] == .approved(via: .sessionAllow))
    }

    @Test("A tick redraws the countdown as a minor update and times out calls past their deadline")
    func ticks() {
        var machine = prompt([makeCall("c1", "f", timeout: 5), makeCall("c2", "g", timeout: 90)])
        guard case .render(let frame) = machine.tick(now: .seconds(1)) else {
            Issue.record("no frame")
            return
        }
        #expect(frame.isMinorUpdate)
        #expect(frame.lines.map(\.plainText).contains { $0.contains("0:04 left") })
        #expect(frame.lines.map(\.plainText).contains { $0.contains("1:29 left") })
        guard case .render(let expired) = machine.tick(now: .seconds(5)) else {
            Issue.record("no frame")
            return
        }
        #expect(!expired.isMinorUpdate)
        #expect(expired.lines.map(\.plainText).contains { $0.contains("f · needs approval · timed out") })
        guard case .finish(let outcome) = machine.tick(now: .seconds(90)) else {
            Issue.record("the prompt outlived every deadline")
            return
        }
        #expect(outcome.verdicts == ["c1": .timedOut, "c2": .timedOut])
    }

    @Test("Deadlines count from when the runtime asked, not from when the prompt appeared")
    func askedEarlier() {
        let machine = ApprovalPrompt(
            request: makeRequest([makeCall("c1", "f", timeout: 20)]), askedAt: .seconds(3), now: .seconds(8),
            width: 100, allowedFunctions: [])
        guard case .render(let frame) = machine.start() else {
            Issue.record("no frame")
            return
        }
        #expect(frame.lines.map(\.plainText).contains { $0.contains("0:15 left") })
    }

    @Test("Cancelling leaves calls in time undecided and records those past their deadline as timed out")
    func cancel() {
        var machine = prompt([makeCall("c1", "f", timeout: 5), makeCall("c2", "g", timeout: 90)])
        #expect(machine.cancel(now: .seconds(6)).verdicts == ["c1": .timedOut])
        #expect(machine.key(.character("a")) == .none)
    }

    @Test("A narrower window rewraps the frame to its width")
    func resize() {
        var machine = prompt([makeCall("c1", "f", description: String(repeating: "word ", count: 30))])
        guard case .render(let frame) = machine.resize(width: 30) else {
            Issue.record("no frame")
            return
        }
        #expect(frame.lines.allSatisfy { $0.width <= 30 })
        #expect(machine.resize(width: 30) == .none)
    }

    @Test("v and ? print above the prompt: the full arguments and the key help")
    func printAbove() {
        let long = String(repeating: "x", count: 200)
        var machine = prompt([makeCall("c1", "f", arguments: ["path": .string(long)])])
        guard case .printAbove(let lines, _) = machine.key(.character("v")) else {
            Issue.record("v printed nothing")
            return
        }
        #expect(lines.map(\.plainText).joined().contains(long))
        guard case .printAbove(let help, _) = machine.key(.character("?")) else {
            Issue.record("? printed nothing")
            return
        }
        #expect(help.map(\.plainText).joined(separator: "\n").contains("allow the selected call's function"))
    }

    @Test(
        "Countdowns read as minutes and seconds, rounded up",
        arguments: [
            (Duration.seconds(0), "0:00"), (.milliseconds(100), "0:01"), (.seconds(59), "0:59"), (.seconds(61), "1:01"),
            (.seconds(-3), "0:00"),
        ])
    func countdown(duration: Duration, text: String) {
        #expect(ApprovalPrompt.countdown(duration) == text)
    }
}
