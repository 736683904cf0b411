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
            await harness.approver.decide(first)
                == .perCall(["c1": .approve, "c2": .decline(reason: "Denied by policy")]))
        _ = await harness.approver.decide(makeRequest([makeCall("c3", "rm_rf")], batch: 2))
        #expect(harness.terminal.screenLines == ["approval needs a terminal; falling back to PolicyApprover"])
        #expect(harness.terminal.rawModeEntries == 0)
    }

    @Test("The default fallback declines everything")
    func defaultFallback() async {
        let harness = Harness(isInteractive: false)
        #expect(
            await harness.approver.decide(makeRequest([makeCall("c1", "f")]))
                == .declineAll(reason: "User denied action"))
        #expect(harness.terminal.screen.contains("falling back to DenyAllApprover"))
    }
}

@Suite(.timeLimit(.minutes(1)))
struct ApprovalAuditLogTests {
    private let secret = "hunter2-very-secret"

    @Test("Each decision is one JSON line with the call's digest, never its argument values")
    func lines() async throws {
        let harness = Harness(audit: true)
        let arguments: JSONValue = ["password": .string(secret), "user": "root"]
        let request = makeRequest([makeCall("c1", "login", arguments: arguments), makeCall("c2", "f")], batch: 7)
        harness.terminal.type("c")
        harness.terminal.type(" ")
        harness.terminal.send(FakeTerminal.enter)
        _ = await harness.approver.decide(request)
        let lines = try harness.auditLines()
        #expect(lines.count == 2)
        let first = try #require(lines.first)
        #expect(first["time"] == "2027-01-15T08:00:00.000Z")
        #expect(first["session_id"] == "session-1")
        #expect(first["batch_id"] == 7)
        #expect(first["call_id"] == "c1")
        #expect(first["function"] == "login")
        #expect(first["argument_digest"] == .string(ArgumentDigest.digest(arguments)))
        #expect(first["decision"] == "approved")
        #expect(first["reason"] == .null)
        #expect(first["via"] == "terminal")
        #expect(lines.last?["decision"] == "declined")
        #expect(lines.last?["reason"] == "Declined at the terminal")
        #expect(!(try harness.auditText()).contains(secret))
        #expect(!(try harness.auditText()).contains("root"))
    }

    @Test(
        "The log says how each decision was made",
        arguments: [("s", "session_allow"), ("eof", "end_of_input"), ("fallback", "fallback_policy")])
    func channels(how: String, via: String) async throws {
        let harness = Harness(isInteractive: how != "fallback", audit: true)
        switch how {
        case "s":
            harness.terminal.type("s")
            _ = await harness.approver.decide(makeRequest([makeCall("c1", "f")]))
            _ = await harness.approver.decide(makeRequest([makeCall("c2", "f")], batch: 2))
        case "eof":
            harness.terminal.endInput()
            _ = await harness.approver.decide(makeRequest([makeCall("c2", "f")]))
        default:
            _ = await harness.approver.decide(makeRequest([makeCall("c2", "f")]))
        }
        let line = try #require(try harness.auditLines().last)
        #expect(line["call_id"] == "c2")
        #expect(line["via"] == .string(via))
    }

    @Test("Lines are appended to an existing file, never replacing it")
    func appends() async throws {
        let harness = Harness(audit: true)
        harness.terminal.type("a")
        _ = await harness.approver.decide(makeRequest([makeCall("c1", "f")]))
        harness.terminal.type("d")
        _ = await harness.approver.decide(makeRequest([makeCall("c2", "f")], batch: 2))
        #expect(try harness.auditLines().map { $0["call_id"] } == ["c1", "c2"])
    }

    @Test("A log that cannot be written is reported on the screen and the decision still stands")
    func unwritable() async {
        let terminal = FakeTerminal()
        let approver = TerminalApprover(
            screen: TerminalScreen(terminal: terminal.io),
            auditLog: ApprovalAuditLog(path: "/nonexistent-dir/audit.jsonl"),
            clock: ResolveKitClock(ManualClock()))
        terminal.type("a")
        #expect(await approver.decide(makeRequest([makeCall("c1", "f")])) == .approveAll)
        #expect(terminal.screen.contains("Cannot open the approval audit log /nonexistent-dir/audit.jsonl"))
    }

    @Test(
        "Argument digests are FNV-1a 64 of the sorted-keys JSON",
        arguments: [
            (JSONValue.object([:]), "08f44b07b5901a25"),
            (JSONValue.object(["b": 1, "a": 2]), "f85f5878cbf2dc03"),
        ])
    func digest(arguments: JSONValue, expected: String) {
        #expect(ArgumentDigest.digest(arguments) == expected)
        #expect(ArgumentDigest.digest(arguments).count == 16)
    }
}
