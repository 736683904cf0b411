import Glibc
import Foundation
import ResolveKit
import ResolveKitTerminal
import ResolveKitTesting
import Testing

@Suite(.timeLimit(.minutes(1)))
struct TerminalApproverFallbackTests {
    @Test("Without a terminal the fallback policy decides, and the approver says so once")
    func fallback() async {
        let harness = Harness(isInteractive: false, fallback: PolicyApprover(rules: ["get_host_status": .allow]))
        let first = makeRequest([makeCall("c1", "get_host_status"), makeCall("c2", "rm_rf")])
        #expect(
            await harness.approver.decide(first).unattributed
                == .perCall(["c1": .approve, "c2": .decline(reason: "Denied by policy")]))
        _ = await harness.approver.decide(makeRequest([makeCall("c3", "rm_rf")], batch: 2))
        #expect(harness.terminal.screenLines == ["approval needs a terminal; falling back to PolicyApprover"])
        #expect(harness.terminal.rawModeEntries == 0)
    }

    @Test("The default fallback declines everything")
    func defaultFallback() async {
        let harness = Harness(isInteractive: false)
        #expect(
            await harness.approver.decide(makeRequest([makeCall("c1", "f")])).unattributed
                == .declineAll(reason: "User denied action"))
        #expect(harness.terminal.screen.contains("falling back to DenyAllApprover"))
    }
}

@Suite(.timeLimit(.minutes(1)))
struct TerminalApproverAttributionTests {
    @Test("A key at the terminal is decided by this process's user, so the audit trail names the person")
    func person() async throws {
        let harness = Harness()
        harness.terminal.type("c")
        harness.terminal.type(" ")
        harness.terminal.send(FakeTerminal.enter)
        let decision = await harness.approver.decide(makeRequest([makeCall("c1", "login"), makeCall("c2", "f")]))
        let expected = ToolCallDecision.Decider.person(
            uid: getuid(), pid: getpid(), terminal: ttyname(STDIN_FILENO).map { String(cString: $0) })
        #expect(decision.decision(for: "c1") == .attributed(.approve, by: expected))
        #expect(decision.decision(for: "c2") == .attributed(.decline(reason: "Declined at the terminal"), by: expected))
    }

    @Test("A session-wide allow is a remembered decision; the end of input is automatic")
    func channels() async throws {
        let allowing = Harness()
        allowing.terminal.type("s")
        _ = await allowing.approver.decide(makeRequest([makeCall("c1", "f")]))
        let later = await allowing.approver.decide(makeRequest([makeCall("c2", "f")], batch: 2))
        #expect(later.decision(for: "c2").decider == .remembered(id: "session allow of f at the terminal"))

        let ended = Harness()
        ended.terminal.endInput()
        let declined = await ended.approver.decide(makeRequest([makeCall("c3", "f")]))
        #expect(declined.decision(for: "c3").decider == .automatic(reason: "the terminal's input ended"))
    }

    @Test("Without a terminal the fallback's own attribution stands")
    func fallbackAttribution() async {
        let harness = Harness(isInteractive: false, fallback: AutoApprover())
        let decision = await harness.approver.decide(makeRequest([makeCall("c1", "f")]))
        #expect(decision.decision(for: "c1").decider == .automatic(reason: "every call is approved"))
    }
}
