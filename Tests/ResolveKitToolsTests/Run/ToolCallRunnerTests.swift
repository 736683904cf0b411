import Foundation
import ResolveKitTesting
import Synchronization
import Testing

@testable import ResolveKitTools

/// The one path a batch takes from admission to outcomes, for sessions and MCP alike.
@Suite(.timeLimit(.minutes(1)))
struct ToolCallRunnerTests {
    /// A function that needs approval and waits until it is let go (or cancelled).
    struct Gate: AnyResolveKitFunction {
        static let resolveKitName = "gate"
        static let resolveKitDescription = "Waits for the test."
        static let resolveKitRequiresApproval = true
        static let resolveKitParametersSchema: JSONObject = [
            "type": "object", "properties": ["room": ["type": "string"]], "required": ["room"],
        ]
        static let opened = Mutex<[ToolCallID]>([])
        static func invoke(arguments: JSONObject, context: ResolveKitFunctionContext) async throws -> JSONValue {
            opened.withLock { $0.append(context.callID ?? "?") }
            try await Task.sleep(for: .seconds(30))
            return "let go"
        }
    }

    /// Everything a test looks at: the reports in order.
    final class Reports: Sendable {
        private let steps = Mutex<[ToolCallReport]>([])
        func record(_ step: ToolCallReport) { steps.withLock { $0.append(step) } }
        var all: [ToolCallReport] { steps.withLock { $0 } }
        func outcome(_ callID: ToolCallID) -> ToolCallOutcome? {
            for case .finished(let id, let outcome, _, _) in all where id == callID { return outcome }
            return nil
        }
    }

    static let registry = try! ResolveKitRegistry(functions: [Probe.Add.self, Probe.Fail.self, Gate.self])

    static func runner(
        approver: any ToolApprover, limit: Int = 8, sequential: Bool = true, audit: ApprovalAuditTrail? = nil
    ) -> ToolCallRunner {
        ToolCallRunner(
            dispatcher: ToolDispatcher(registry: registry, clock: .continuous, logger: .disabled, dependencies: .init()),
            approvals: ToolApprovals(rememberedFile: nil, registry: registry), approver: approver,
            audit: AuditRecords(trail: audit) { _ in }, control: ToolCallControl(maxConcurrentCalls: limit),
            runsSequentially: sequential)
    }

    static func call(_ id: ToolCallID, _ name: String, _ arguments: JSONValue = [:], approval: Bool = false) -> PendingToolCall {
        PendingToolCall(
            callID: id, turnID: "t", functionName: name, arguments: arguments, humanDescription: "",
            requiresApproval: approval, timeoutSeconds: 30, receivedAt: .zero)
    }

    static let deadlines = ToolCallDeadlines(approval: { _ in .seconds(600) }, run: { _, now in now + .seconds(30) })

    @Test func anApprovalFreeCallRunsBeforeRunReturnsItsFirstSuspension() async {
        let runner = Self.runner(approver: DenyAllApprover())
        let reports = Reports()
        let outcomes = await runner.run(
            ToolCallBatch(id: 0, calls: [Self.call("c1", "add", ["a": 1, "b": 2])]), in: "s",
            allowedNames: ["add"], deadlines: Self.deadlines, report: reports.record)
        #expect(outcomes["c1"] == .success(3))
        #expect(reports.all.map(\.callID) == ["c1", "c1", "c1"])
        guard case .decided(_, .notRequired, let decision?) = reports.all.first else {
            Issue.record("no automatic decision: \(reports.all)")
            return
        }
        #expect(decision.decider == .automatic(reason: "the function needs no approval"))
    }

    /// An operator's rule naming a function wins over its registration: `deny` declines an approval-free call and
    /// `ask` asks about it; the policy's default leaves such calls alone.
    @Test func aPolicyRuleNamingAnApprovalFreeFunctionDecidesItsCalls() async throws {
        let asked = Mutex<[ToolCallID]>([])
        let person = ClosureApprover { request in
            asked.withLock { $0 += request.calls.map(\.id) }
            return .approveAll
        }
        let policy = try PolicyApprover(
            jsonBytes: Array(#"{"default": "deny", "functions": {"add": "deny", "fail": "ask"}}"#.utf8),
            fallback: person)
        let reports = Reports()
        let batch = ToolCallBatch(id: 1, calls: [Self.call("denied", "add", ["a": 1, "b": 2]), Self.call("asked", "fail")])
        await Self.runner(approver: policy).run(
            batch, in: "s", allowedNames: ["add", "fail"], deadlines: Self.deadlines, report: reports.record)
        #expect(reports.outcome("denied") == .failure(.declined("Denied by policy")))
        #expect(asked.withLock { $0 } == ["asked"])
        #expect(reports.outcome("asked")?.failure?.code == .executionFailed)

        let unnamed = try PolicyApprover(jsonBytes: Array(#"{"default": "deny"}"#.utf8))
        let free = await Self.runner(approver: unnamed).run(
            ToolCallBatch(id: 2, calls: [Self.call("free", "add", ["a": 1, "b": 2])]), in: "s",
            allowedNames: ["add"], deadlines: Self.deadlines) { _ in }
        #expect(free["free"] == .success(3))
    }

    /// A call that waited for a decision starts only on the front end's word (a session writes first that it may
    /// have run): refused, it never runs; an approval-free call never asks.
    @Test func aDecidedCallStartsOnlyWhenTheFrontEndPermitsIt() async throws {
        let asked = Mutex<[ToolCallID]>([])
        let reports = Reports()
        let batch = ToolCallBatch(
            id: 1, calls: [Self.call("refused", "add", ["a": 1, "b": 2], approval: true), Self.call("free", "add", ["a": 2, "b": 2])])
        let outcomes = await Self.runner(approver: AutoApprover()).run(
            batch, in: "s", allowedNames: ["add"], deadlines: Self.deadlines,
            startPermit: { callID in
                asked.withLock { $0.append(callID) }
                return false
            },
            report: reports.record)
        #expect(asked.withLock { $0 } == ["refused"])
        #expect(outcomes["refused"] == .failure(.cancelled("Not run: its session ended before it started")))
        #expect(!reports.all.contains(.started("refused")))
        #expect(outcomes["free"] == .success(4))
    }

    @Test func unknownNotAllowedAndInvalidCallsAreRefusedBeforeAnyoneIsAsked() async {
        let asked = Mutex(0)
        let runner = Self.runner(approver: ClosureApprover { _ in
            asked.withLock { $0 += 1 }
            return .approveAll
        })
        let reports = Reports()
        let batch = ToolCallBatch(id: 1, calls: [
            Self.call("unknown", "rm_rf"), Self.call("hidden", "fail"),
            Self.call("invalid", "gate", ["rooms": "hall"], approval: true),
        ])
        await runner.run(batch, in: "s", allowedNames: ["add", "gate"], deadlines: Self.deadlines, report: reports.record)
        #expect(reports.outcome("unknown")?.failure?.code == .unknownFunction)
        #expect(reports.outcome("hidden")?.failure?.code == .notAllowed)
        #expect(reports.outcome("invalid")?.failure?.code == .invalidArguments)
        #expect(asked.withLock { $0 } == 0)
    }

    @Test func aDeclineIsAnOutcomeAndItsReasonIsWhatTheModelIsTold() async {
        let runner = Self.runner(approver: DenyAllApprover(reason: "Not today"))
        let reports = Reports()
        await runner.run(
            ToolCallBatch(id: 1, calls: [Self.call("c1", "gate", ["room": "hall"], approval: true)]), in: "s",
            allowedNames: ["gate"], deadlines: Self.deadlines, report: reports.record)
        #expect(reports.outcome("c1") == .failure(.declined("Not today")))
        #expect(Gate.opened.withLock { !$0.contains("c1") })
    }

    @Test func aWithdrawnCallAwaitingApprovalNeverRunsAndEndsWithTheReasonGiven() async {
        let runner = Self.runner(approver: ToolApprovals.Deferred())
        let reports = Reports()
        let running = Task {
            await runner.run(
                ToolCallBatch(id: 1, calls: [Self.call("w1", "gate", ["room": "hall"], approval: true)]), in: "s",
                allowedNames: ["gate"], deadlines: Self.deadlines, report: reports.record)
        }
        while runner.approvals.pending.isEmpty { await Task.yield() }
        runner.withdraw(["w1"], in: "s", because: .cancelled("Not run: its turn ended"))
        _ = await running.value
        #expect(reports.outcome("w1") == .failure(.cancelled("Not run: its turn ended")))
        #expect(runner.approvals.pending.isEmpty)
    }

    @Test func callsBeyondTheLimitWaitForASlotAndAWithdrawnOneNeverStarts() async {
        let runner = Self.runner(approver: AutoApprover(), limit: 1, sequential: false)
        let reports = Reports()
        let batch = ToolCallBatch(id: 1, calls: [
            Self.call("g1", "gate", ["room": "a"], approval: true), Self.call("g2", "gate", ["room": "b"], approval: true),
        ])
        let running = Task {
            await runner.run(batch, in: "s", allowedNames: ["gate"], deadlines: Self.deadlines, report: reports.record)
        }
        // The slot is taken before the function runs: wait for the function itself, or which call has the slot is
        // not known yet (a run read it too early, withdrew the running call and waited for its 30 s timeout).
        while Gate.opened.withLock({ Set($0).isDisjoint(with: ["g1", "g2"]) }) { await Task.yield() }
        let started = Gate.opened.withLock { Set($0).intersection(["g1", "g2"]) }
        let waiting: ToolCallID = started.contains("g1") ? "g2" : "g1"
        let first: ToolCallID = waiting == "g1" ? "g2" : "g1"
        runner.withdraw([waiting], in: "s", because: .cancelled("The service is shutting down; try again later"))
        runner.cancel([first], in: "s", because: .cancelled("stop"))
        _ = await running.value
        #expect(reports.outcome(waiting) == .failure(.cancelled("The service is shutting down; try again later")))
        #expect(reports.outcome(first) == .failure(.cancelled("Cancelled before it finished")))
        #expect(Gate.opened.withLock { !$0.contains(waiting) })
        #expect(runner.control.runningCount == 0)
    }

    @Test func editedArgumentsAreValidatedRunAndSaidToTheModel() async {
        let runner = Self.runner(approver: ClosureApprover { request in
            .perCall([request.calls[0].id: .approveEdited(arguments: ["a": 40, "b": 2])])
        })
        var add = Self.call("e1", "add", ["a": 1, "b": 1], approval: true)
        add.requiresApproval = true
        let reports = Reports()
        await runner.run(
            ToolCallBatch(id: 1, calls: [add]), in: "s", allowedNames: ["add"], deadlines: Self.deadlines,
            report: reports.record)
        guard case .success(let value) = reports.outcome("e1") else {
            Issue.record("no result: \(reports.all)")
            return
        }
        #expect(value["result"] == 42)
        #expect(value["note"]?.stringValue?.contains("A person changed the arguments") == true)
    }

    @Test func everyDecisionAndOutcomeReachesTheAuditTrail() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("audit-\(UUID()).jsonl").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let runner = Self.runner(approver: DenyAllApprover(), audit: ApprovalAuditTrail(path: path))
        await runner.run(
            ToolCallBatch(id: 3, calls: [
                Self.call("ok", "add", ["a": 1, "b": 1]), Self.call("no", "gate", ["room": "x"], approval: true),
                Self.call("bad", "nope"),
            ]), in: "s", allowedNames: ["add", "gate"], deadlines: Self.deadlines, report: { _ in })
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        #expect(lines.filter { $0.contains(#""kind":"decision""#) }.count == 2)
        #expect(lines.contains { $0.contains(#""call_id":"bad""#) && $0.contains(#""status":"unknown_function""#) })
        #expect(lines.contains { $0.contains(#""call_id":"no""#) && $0.contains(#""status":"declined""#) })
        #expect(lines.contains { $0.contains(#""call_id":"ok""#) && $0.contains(#""status":"success""#) })
    }
}
