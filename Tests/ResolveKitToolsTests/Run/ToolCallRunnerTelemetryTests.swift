import Foundation
import ResolveKitTelemetry
import ResolveKitTesting
import Synchronization
import Testing

@testable import ResolveKitTools

/// What the runner records about each call, on a manual clock: the catalog's metrics and the call's spans.
@Suite(.timeLimit(.minutes(1)))
struct ToolCallRunnerTelemetryTests {
    /// Keeps the spans that end (the tests of the exporter post to a loopback receiver).
    final class Spans: SpanProcessor {
        private let list = Mutex<[FinishedSpan]>([])
        func onEnd(_ span: FinishedSpan) { list.withLock { $0.append(span) } }
        var all: [FinishedSpan] { list.withLock { $0 } }
        func named(_ name: String) -> FinishedSpan? { all.first { $0.name == name } }
    }

    /// A runner recording into a fresh registry and span list, on `clock`.
    struct Recorded {
        let runner: ToolCallRunner
        let registry = MetricsRegistry()
        let spans = Spans()
        let approvals: ToolApprovals

        init(approver: any ToolApprover, clock: ManualClock) throws {
            let registry = ToolCallRunnerTests.registry
            approvals = ToolApprovals(rememberedFile: nil, registry: registry)
            let metrics = try ResolveKitMetrics(registry: self.registry, functionNames: registry.functionNames)
            runner = ToolCallRunner(
                dispatcher: ToolDispatcher(
                    registry: registry, clock: ResolveKitClock(clock), logger: .disabled, dependencies: .init()),
                approvals: approvals, approver: approver, audit: AuditRecords(trail: nil) { _ in },
                control: ToolCallControl(maxConcurrentCalls: 8), runsSequentially: true,
                telemetry: ToolCallTelemetry(metrics: metrics, tracer: Tracer(processor: spans)))
        }

        /// The value of one sample of the exposition.
        func sample(_ key: String) -> Double? {
            for line in String(decoding: registry.exposition(), as: UTF8.self).split(separator: "\n")
            where line.hasPrefix(key + " ") {
                return Double(line.dropFirst(key.count + 1))
            }
            return nil
        }
    }

    static let parent = try! SpanContext(traceparent: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01")
    static let neverDecides = ClosureApprover { _ in
        try? await Task.sleep(for: .seconds(3600))
        return .approveAll
    }

    @Test func aCallAPersonApprovesIsPendingMeanwhileAndItsWaitAndRunAreRecordedUnderItsParent() async throws {
        let clock = ManualClock()
        let recorded = try Recorded(approver: Self.neverDecides, clock: clock)
        let started = Mutex<[ToolCallID: SpanContext]>([:])
        let trace = ToolCallTrace(parent: { _ in .context(Self.parent) }) { callID, context in
            started.withLock { $0[callID] = context }
        }
        let updates = recorded.approvals.updates
        let running = Task {
            await recorded.runner.run(
                ToolCallBatch(id: 1, calls: [ToolCallRunnerTests.call("c1", "add", ["a": 1, "b": 2], approval: true)]),
                in: "s", allowedNames: ["add"], deadlines: ToolCallRunnerTests.deadlines, trace: trace
            ) { _ in }
        }
        for await _ in updates where !recorded.approvals.pending.isEmpty { break }
        #expect(recorded.sample("resolvekit_approvals_pending") == 1)
        clock.advance(by: .seconds(3))
        try recorded.approvals.approve(callIDs: ["c1"], by: .person(uid: 1000, pid: 42, terminal: nil))
        #expect(await running.value["c1"] == .success(3))

        #expect(recorded.sample("resolvekit_approvals_pending") == 0)
        #expect(recorded.sample("resolvekit_tool_calls_running") == 0)
        #expect(
            recorded.sample(#"resolvekit_tool_calls_total{function="add",outcome="success",decided_by="person"}"#)
                == 1)
        #expect(recorded.sample(#"resolvekit_tool_approval_wait_seconds_sum{decided_by="person"}"#) == 3)
        #expect(recorded.sample(#"resolvekit_tool_approval_wait_seconds_bucket{decided_by="person",le="2.5"}"#) == 0)
        #expect(recorded.sample(#"resolvekit_tool_approval_wait_seconds_bucket{decided_by="person",le="5"}"#) == 1)
        #expect(recorded.sample(#"resolvekit_tool_execution_duration_seconds_count{function="add"}"#) == 1)

        let call = try #require(recorded.spans.named("execute_tool add"))
        let approval = try #require(recorded.spans.named("approval add"))
        let run = try #require(recorded.spans.named("run add"))
        #expect(call.context.traceID == Self.parent.traceID)
        #expect(call.parentSpanID == Self.parent.spanID)
        #expect(started.withLock { $0["c1"] } == call.context)
        #expect(approval.parentSpanID == call.context.spanID)
        #expect(run.parentSpanID == call.context.spanID)
        #expect(approval.attribute("resolvekit.approval.decided_by") == "person")
        #expect(approval.attribute("resolvekit.approval.approved") == true)
        #expect(approval.endTimeUnixNano <= run.startTimeUnixNano)
        #expect(call.attribute("gen_ai.tool.call.id") == "c1")
        #expect(call.attribute("resolvekit.tool.outcome") == "success")
        #expect(call.status == .unset)
    }

    @Test func anApprovalNobodyMakesInTimeIsATimeoutDecidedByTheTimeout() async throws {
        let clock = ManualClock()
        let recorded = try Recorded(approver: Self.neverDecides, clock: clock)
        let deadlines = ToolCallDeadlines(approval: { _ in .seconds(5) }, run: { _, now in now + .seconds(30) })
        let running = Task {
            await recorded.runner.run(
                ToolCallBatch(id: 1, calls: [ToolCallRunnerTests.call("c1", "add", ["a": 1, "b": 2], approval: true)]),
                in: "s", allowedNames: ["add"], deadlines: deadlines
            ) { _ in }
        }
        await clock.waitForSleeper(at: .init(offset: .seconds(5)))
        clock.advance(by: .seconds(5))
        #expect(await running.value["c1"] == .failure(.declined("Approval timed out")))
        #expect(
            recorded.sample(#"resolvekit_tool_calls_total{function="add",outcome="timeout",decided_by="timeout"}"#)
                == 1)
        #expect(recorded.sample(#"resolvekit_tool_approval_wait_seconds_sum{decided_by="timeout"}"#) == 5)
        #expect(recorded.sample("resolvekit_approvals_pending") == 0)
        let call = try #require(recorded.spans.named("execute_tool add"))
        #expect(call.attribute("error.type") == "timeout")
        #expect(recorded.spans.named("run add") == nil)
    }

    @Test func aCallWithdrawnBeforeAnyoneDecidedIsRefusedAndNoLongerPending() async throws {
        let clock = ManualClock()
        let recorded = try Recorded(approver: Self.neverDecides, clock: clock)
        let updates = recorded.approvals.updates
        let running = Task {
            await recorded.runner.run(
                ToolCallBatch(id: 1, calls: [ToolCallRunnerTests.call("c1", "add", ["a": 1, "b": 2], approval: true)]),
                in: "s", allowedNames: ["add"], deadlines: ToolCallRunnerTests.deadlines
            ) { _ in }
        }
        for await _ in updates where !recorded.approvals.pending.isEmpty { break }
        recorded.runner.withdraw(["c1"], in: "s", because: .cancelled("Not run: its turn ended"))
        #expect(await running.value["c1"] == .failure(.cancelled("Not run: its turn ended")))
        #expect(recorded.sample("resolvekit_approvals_pending") == 0)
        #expect(
            recorded.sample(#"resolvekit_tool_calls_total{function="add",outcome="refused",decided_by="automatic"}"#)
                == 1)
        #expect(recorded.sample(#"resolvekit_tool_approval_wait_seconds_count{decided_by="automatic"}"#) == nil)
        let approval = try #require(recorded.spans.named("approval add"))
        #expect(approval.attribute("error.type") == "withdrawn")
    }

    @Test func aFailingFunctionIsAnErrorAndItsRunSpanSaysWhy() async throws {
        let recorded = try Recorded(approver: DenyAllApprover(), clock: ManualClock())
        let outcomes = await recorded.runner.run(
            ToolCallBatch(id: 0, calls: [ToolCallRunnerTests.call("c1", "fail")]), in: "s", allowedNames: ["fail"],
            deadlines: ToolCallRunnerTests.deadlines
        ) { _ in }
        #expect(outcomes["c1"]?.failure?.code == .executionFailed)
        #expect(
            recorded.sample(#"resolvekit_tool_calls_total{function="fail",outcome="error",decided_by="automatic"}"#)
                == 1)
        #expect(recorded.spans.named("run fail")?.attribute("error.type") == "execution_failed")
        #expect(recorded.spans.named("execute_tool fail")?.attribute("error.type") == "tool_error")
        #expect(recorded.spans.named("approval fail") == nil, "nobody was asked")
    }

    @Test(arguments: [
        (
            ToolCallOutcome.success("ok"), ResolveKitMetrics.Decider.automatic, true,
            ResolveKitMetrics.ToolOutcome.success
        ),
        (.failure(.declined()), .person, false, .declined),
        (.failure(.declined("Approval timed out")), .timeout, false, .timeout),
        (.failure(.timedOut(after: 5)), .automatic, true, .timeout),
        (.failure(.unknownFunction("x")), .automatic, false, .refused),
        (.failure(.notAllowed("x")), .automatic, false, .refused),
        (.failure(.invalidArguments("bad")), .automatic, false, .error),
        (.failure(.cancelled("stopped")), .policy, false, .refused),
        (.failure(.cancelled("stopped")), .automatic, true, .error),
        (.failure(.executionFailed("boom")), .host, true, .error),
    ])
    func everyOutcomeHasItsLabel(
        outcome: ToolCallOutcome, decider: ResolveKitMetrics.Decider, ran: Bool,
        expected: ResolveKitMetrics.ToolOutcome
    ) {
        #expect(ResolveKitMetrics.ToolOutcome(outcome, decidedBy: decider, ran: ran) == expected)
    }

    @Test func aDecisionNobodyAttributedIsTheHostsOwnCode() {
        #expect(ResolveKitMetrics.Decider(nil) == .host)
        #expect(ResolveKitMetrics.Decider(.policy(rule: "default")) == .policy)
        #expect(ResolveKitMetrics.Decider(.remembered(id: "r1")) == .remembered)
        #expect(ResolveKitMetrics.Decider(.person(uid: 0, pid: 1, terminal: nil)) == .person)
    }
}
