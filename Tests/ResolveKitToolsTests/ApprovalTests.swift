import Foundation
@testable import ResolveKitTools
import Testing

struct ApprovalTests {
    func request(_ names: [String]) -> ToolApprovalRequest {
        let calls = names.enumerated().map { index, name in
            ToolApprovalRequest.Call(
                call: PendingToolCall(
                    callID: ToolCallID("c\(index)"), turnID: "t", functionName: name, arguments: [:], humanDescription: "",
                    requiresApproval: true, timeoutSeconds: 30, receivedAt: .zero),
                timeRemaining: .seconds(30))
        }
        return ToolApprovalRequest(batchID: 1, calls: calls, sessionID: "s")
    }

    @Test func builtInApproversApproveOrDeclineEverything() async {
        #expect(await AutoApprover().decide(request(["a"])).unattributed == .approveAll)
        #expect(await DenyAllApprover().decide(request(["a"])).decision(for: "c0") == .decline(reason: "User denied action"))
        #expect(ToolBatchDecision.perCall([:]).decision(for: "missing") == .decline(reason: nil))
    }

    @Test func policyAllowsDeniesAndAsksTheFallbackOnlyAboutAskCalls() async throws {
        let asked = AskedNames()
        let policy = try PolicyApprover(
            jsonBytes: Array(#"{"default": "ask", "functions": {"get_time": "allow", "rm": "deny"}}"#.utf8),
            fallback: ClosureApprover { request in
                await asked.record(request.calls.map(\.call.functionName))
                return .approveAll
            })
        let decision = await policy.decide(request(["get_time", "rm", "read_log"]))
        #expect(decision.decision(for: "c0") == .attributed(.approve, by: .policy(rule: "get_time")))
        #expect(decision.decision(for: "c1") == .attributed(.decline(reason: "Denied by policy"), by: .policy(rule: "rm")))
        #expect(decision.decision(for: "c2").verdict == .approve)
        #expect(await asked.names == [["read_log"]])
    }

    @Test func policyWithoutFallbackDeclinesAskCalls() async {
        let policy = PolicyApprover(rules: [:], defaultRule: .ask)
        #expect(await policy.decide(request(["x"])).decision(for: "c0").verdict
            == .decline(reason: "No one was available to approve this call"))
    }

    @Test(arguments: [
        (#"[]"#, "policy:1:1: error: the policy must be a JSON object"),
        (#"{"default": "maybe"}"#, #"policy:1:13: error: default must be "allow", "deny" or "ask""#),
        (#"{"functions": {"x": true}}"#, #"policy:1:21: error: functions.x must be "allow", "deny" or "ask""#),
        (#"{"functions": []}"#, "policy:1:15: error: functions must be an object of function name to rule"),
    ])
    func policyFilesWithMistakesSayWhichMemberAndWhere(text: String, message: String) {
        #expect { try PolicyApprover(jsonBytes: Array(text.utf8)) } throws: {
            ($0 as? ResolveKitError)?.message == "Invalid approval policy:\n" + message
        }
    }

    @Test func policyFilesAreReadFromDisk() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("policy-\(UUID().uuidString).json")
        try Data(#"{"default": "allow"}"#.utf8).write(to: path)
        defer { try? FileManager.default.removeItem(at: path) }
        #expect(try PolicyApprover(contentsOf: path).rule(for: "anything") == .allow)
    }

    @Test func aRememberedAllowForOtherArgumentsOrAnotherSessionDoesNotMatch() throws {
        let call = PendingToolCall(
            callID: "c1", turnID: "t", functionName: "set_lights", arguments: ["room": "kitchen", "on": true],
            humanDescription: "", requiresApproval: true, timeoutSeconds: 30, receivedAt: .zero)
        var decision = ToolApprovals.Remembered(
            id: "r1", functionName: "set_lights", arguments: ["on": true, "room": "kitchen"], scope: .session("s1"),
            schemaDigest: "d", createdAt: Date(), createdBy: "host ops")
        #expect(decision.matches(call, sessionID: "s1", schemaDigest: "d", now: Date()))
        #expect(!decision.matches(call, sessionID: "s2", schemaDigest: "d", now: Date()))
        #expect(!decision.matches(call, sessionID: "s1", schemaDigest: "changed", now: Date()))
        decision.arguments = ["room": "hall", "on": true]
        #expect(!decision.matches(call, sessionID: "s1", schemaDigest: "d", now: Date()))
        decision.arguments = nil
        decision.scope = .until(Date().addingTimeInterval(-1))
        #expect(!decision.matches(call, sessionID: "s1", schemaDigest: "d", now: Date()))
    }
}

actor AskedNames {
    var names: [[String]] = []
    func record(_ batch: [String]) { names.append(batch) }
}
