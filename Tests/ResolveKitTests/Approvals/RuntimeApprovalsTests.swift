import Foundation
import ResolveKitTesting
import Testing

@testable import ResolveKit

@Suite(.timeLimit(.minutes(1)))
struct RuntimeApprovalsTests {
    /// Waits for the next batch to decide.
    static func nextRequest(_ updates: AsyncStream<ToolApprovals.Update>) async -> ToolApprovalRequest? {
        for await update in updates { if case .requested(let request) = update { return request } }
        return nil
    }

    static func auditLines(_ path: String) throws -> [JSONValue] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map {
            try JSONValue(parsing: String($0))
        }
    }

    @Test func anyTaskApprovesAWaitingCallAndTheTrailNamesWhoDecided() async throws {
        try await RuntimeHarness.run { harness in
            var configuration = harness.configuration(approver: ToolApprovals.Deferred())
            let auditPath = harness.stateDirectory + "-audit.jsonl"
            defer { try? FileManager.default.removeItem(atPath: auditPath) }
            configuration.auditTrail = ApprovalAuditTrail(path: auditPath)
            try await harness.withRuntime(configuration) { runtime in
                let updates = runtime.approvals.updates
                _ = await runtime.sendMessage("lights")
                let request = try #require(await Self.nextRequest(updates))
                #expect(request.calls.map(\.call.functionName) == ["set_lights"])
                #expect(runtime.pendingApprovals.map(\.calls.count) == [1])
                try runtime.approve(callIDs: [request.calls[0].id], by: .host("ops-bot"))
                await runtime.wait { $0.item("set_lights")?.status == .completed && !$0.isTurnInProgress }
                #expect(runtime.pendingApprovals.isEmpty)
                #expect(ExecutionLedger.shared.count(request.calls[0].id) == 1)
            }
            let lines = try Self.auditLines(auditPath)
            let decision = try #require(lines.first { $0["kind"] == "decision" && $0["function"] == "set_lights" })
            #expect(decision["decision"] == "approved")
            #expect(decision["decided_by"] == ["kind": "host", "name": "ops-bot"])
            let outcome = try #require(lines.first { $0["kind"] == "outcome" && $0["function"] == "set_lights" })
            #expect(outcome["status"] == "success")
            #expect(outcome["result_digest"]?.stringValue?.count == 64)
            #expect(ApprovalAuditTrail.verify(path: auditPath).isIntact)
        }
    }

    @Test func aDeclineWithAReasonIsWhatTheModelIsTold() async throws {
        try await RuntimeHarness.run { harness in
            try await harness.withRuntime(harness.configuration(approver: ToolApprovals.Deferred())) { runtime in
                let updates = runtime.approvals.updates
                _ = await runtime.sendMessage("lights")
                let request = try #require(await Self.nextRequest(updates))
                try runtime.decline(callIDs: [request.calls[0].id], reason: "Not during the night shift")
                await runtime.wait { $0.item("set_lights")?.status == .cancelled(reason: "Not during the night shift") }
                #expect(ExecutionLedger.shared.count(request.calls[0].id) == 0)
                // The first decision wins: a second one is refused with a code a program can act on.
                #expect(throws: ResolveKitError.self) { try runtime.approve(callIDs: [request.calls[0].id]) }
                do throws(ResolveKitError) {
                    try runtime.approve(callIDs: [request.calls[0].id])
                } catch {
                    #expect(error.code == .approvalNotPending)
                }
            }
        }
    }

    @Test func editedArgumentsAreValidatedThenRunAndTheModelIsToldTheyChanged() async throws {
        try await RuntimeHarness.run { harness in
            try await harness.withRuntime(harness.configuration(approver: ToolApprovals.Deferred())) { runtime in
                let updates = runtime.approvals.updates
                _ = await runtime.sendMessage("lights")
                let callID = try #require(await Self.nextRequest(updates)?.calls.first?.id)
                do throws(ResolveKitError) {
                    try runtime.approve(callID: callID, arguments: ["room": "hall", "on": "maybe"])
                    Issue.record("invalid edited arguments were accepted")
                } catch {
                    #expect(error.code == .invalidArguments)
                    #expect(error.message.contains("$.on"))
                }
                #expect(runtime.pendingApprovals.first?.calls.first?.id == callID)
                try runtime.approve(callID: callID, arguments: ["room": "hall", "on": "false"], by: .host("editor"))
                await runtime.wait { $0.item("set_lights")?.status == .completed }
                let result = try #require(runtime.item("set_lights")?.result)
                #expect(result["result"]?["room"] == "hall")
                #expect(result["result"]?["on"] == false)
                #expect(result["arguments"] == ["room": "hall", "on": false])
                #expect(result["note"]?.stringValue?.contains("A person changed the arguments") == true)
            }
        }
    }

    @Test func aRememberedAllowSurvivesARestartAndCanBeRevoked() async throws {
        try await RuntimeHarness.run { harness in
            let configuration = harness.configuration(approver: ToolApprovals.Deferred(), persistent: true)
            try await harness.withRuntime(configuration) { runtime in
                let remembered = try await runtime.approvals.remember(
                    allow: "set_lights", scope: .always, by: .host("ops"))
                #expect(await runtime.approvals.remembered.map(\.id) == [remembered.id])
            }
            // A new runtime on the same folder: the call runs without anyone deciding.
            try await harness.withRuntime(configuration) { runtime in
                let remembered = try #require(await runtime.approvals.remembered.first)
                try await runtime.converse("lights")
                #expect(runtime.item("set_lights")?.status == .completed)
                try await runtime.approvals.revoke(id: remembered.id)
                #expect(await runtime.approvals.remembered.isEmpty)
                let updates = runtime.approvals.updates
                _ = await runtime.sendMessage("lights")
                let request = try #require(await Self.nextRequest(updates))
                try runtime.decline(callIDs: request.calls.map(\.id))
                await runtime.wait { !$0.isTurnInProgress }
            }
        }
    }

    /// A bot that decides every announced call never gets one a remembered decision approved already (deciding it
    /// would throw `approval_not_pending`).
    @Test func aCallARememberedDecisionApprovedIsNotAnnouncedAsWaiting() async throws {
        try await RuntimeHarness.run { harness in
            try await harness.withRuntime(harness.configuration(approver: ToolApprovals.Deferred())) { runtime in
                try await runtime.approvals.remember(allow: "set_lights", scope: .always, by: .host("ops"))
                let updates = runtime.approvals.updates
                _ = await runtime.sendMessage("three")
                let request = try #require(await Self.nextRequest(updates))
                #expect(request.calls.map(\.call.functionName) == ["lock_door"])
                try runtime.approve(callIDs: request.calls.map(\.id))
                await runtime.wait { !$0.isTurnInProgress }
                #expect(runtime.item("set_lights")?.status == .completed)
                #expect(runtime.item("lock_door")?.status == .completed)
            }
        }
    }

    @Test func aRememberedAllowNeverOverridesADenyRule() async throws {
        try await RuntimeHarness.run { harness in
            let policy = PolicyApprover(
                rules: ["set_lights": .deny], defaultRule: .ask, fallback: ToolApprovals.Deferred())
            try await harness.withRuntime(harness.configuration(approver: policy)) { runtime in
                try await runtime.approvals.remember(allow: "set_lights", scope: .always, by: .host("ops"))
                try await runtime.converse("lights")
                #expect(runtime.item("set_lights")?.status == .cancelled(reason: "Denied by policy"))
            }
        }
    }

    @Test func aRememberedAllowWithARuleMatchesOnlyCallsMeetingItAndSurvivesTheFile() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("remembered-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let registry = try ResolveKitRegistry(functions: TestTools.all, functionPacks: [])
        let conditions = try PolicyApprover.conditions(
            ["$.room": ["oneOf": ["hall", "porch"]]], for: "set_lights", functions: registry)
        let first = ToolApprovals(rememberedFile: ToolApprovals.rememberedFile(in: folder), registry: registry)
        try await first.remember(allow: "set_lights", matching: conditions, scope: .always, by: .host("ops"))
        // A new process reads the same file.
        let second = ToolApprovals(rememberedFile: ToolApprovals.rememberedFile(in: folder), registry: registry)
        func call(_ room: String) -> PendingToolCall {
            PendingToolCall(
                callID: ToolCallID(room), turnID: "t", functionName: "set_lights", arguments: ["room": .string(room), "on": true],
                humanDescription: "", requiresApproval: true, timeoutSeconds: 30, receivedAt: .zero)
        }
        #expect(await second.rememberedDecision(for: call("hall"), sessionID: "s")?.conditions == conditions)
        #expect(await second.rememberedDecision(for: call("kitchen"), sessionID: "s") == nil)
        #expect(throws: ResolveKitError.self) {
            try PolicyApprover.conditions(["$.colour": ["equals": "red"]], for: "set_lights", functions: registry)
        }
    }
}
