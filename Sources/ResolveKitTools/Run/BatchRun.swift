import ResolveKitTelemetry
import Synchronization

/// What one ``ToolCallRunner/run(_:in:allowedNames:deadlines:trace:report:)`` shares between its calls: where to
/// report, the outcomes so far, and what telemetry keeps about each call until its outcome. Finishing a call
/// reports it once, records it, and frees its place in the control.
final class BatchRun: Sendable {
    /// What telemetry keeps about one call: its spans, when its approval wait began, who decided it.
    struct CallRecord {
        var span: Span?
        /// The context the call's work descends from: its span's, or the parent's when nothing is traced.
        var context: SpanContext?
        var approval: Span?
        var approvalOpenedAt: Duration?
        var decider = ResolveKitMetrics.Decider.automatic
        var run: Span?
    }

    private struct State {
        var outcomes: [ToolCallID: ToolCallOutcome] = [:]
        var records: [ToolCallID: CallRecord] = [:]
    }

    let runner: ToolCallRunner
    let sessionID: String
    let deadlines: ToolCallDeadlines
    let trace: ToolCallTrace
    let report: @Sendable (ToolCallReport) -> Void
    private let state = Mutex(State())

    init(
        runner: ToolCallRunner, sessionID: String, deadlines: ToolCallDeadlines, trace: ToolCallTrace,
        report: @escaping @Sendable (ToolCallReport) -> Void
    ) {
        self.runner = runner
        self.sessionID = sessionID
        self.deadlines = deadlines
        self.trace = trace
        self.report = report
    }

    private var telemetry: ToolCallTelemetry { runner.telemetry }

    var outcomes: [ToolCallID: ToolCallOutcome] { state.withLock { $0.outcomes } }

    /// The call arrived in the runner: its span starts (dated from its arrival), under the trace's parent.
    func begin(_ call: PendingToolCall) {
        let parent = trace.parent(call)
        var record = CallRecord()
        if let tracer = telemetry.tracer {
            let now = telemetry.time.now()
            let waited = UInt64(max(0, (runner.clock.elapsed - call.receivedAt).nanoseconds))
            let span = tracer.startToolCall(
                function: call.functionName, callID: call.callID.rawValue, parent: parent,
                startTime: now > waited ? now - waited : now)
            record.span = span
            record.context = span.context
            trace.started(call.callID, span.context)
        } else {
            record.context = parent.context
        }
        guard telemetry.metrics != nil || record.context != nil else { return }
        state.withLock { $0.records[call.callID] = record }
    }

    /// The call waits for a decision from now on.
    func approvalOpened(_ call: PendingToolCall) {
        guard telemetry.isOn else { return }
        telemetry.metrics?.approvalRequested()
        let now = runner.clock.elapsed
        state.withLock { state in
            guard var record = state.records[call.callID] else { return }
            record.approval = record.span.flatMap { telemetry.tracer?.startApproval(function: call.functionName, call: $0) }
            record.approvalOpenedAt = now
            state.records[call.callID] = record
        }
    }

    /// Reports the decision and, when the call waited for it, records who decided and after how long.
    func decided(_ call: PendingToolCall, _ checklist: ToolCallChecklistItem.Decision, _ decision: ToolCallDecision?) {
        if telemetry.isOn {
            let decider = decision.map { ResolveKitMetrics.Decider($0.decider) } ?? .automatic
            let now = runner.clock.elapsed
            let (approval, openedAt) = state.withLock { state -> (Span?, Duration?) in
                state.records[call.callID]?.decider = decider
                let approval = state.records[call.callID]?.approval
                let openedAt = state.records[call.callID]?.approvalOpenedAt
                state.records[call.callID]?.approval = nil
                state.records[call.callID]?.approvalOpenedAt = nil
                return (approval, openedAt)
            }
            if let openedAt { telemetry.metrics?.approvalDecided(by: decider, wait: now - openedAt) }
            approval?.finishApproval(decidedBy: decider, approved: decision?.approves ?? false)
        }
        report(.decided(call.callID, checklist: checklist, decision: decision))
    }

    /// The call's function starts now: returns the context its function sees (its `run` span's, or the call's).
    func runStarted(_ call: PendingToolCall) -> SpanContext? {
        telemetry.metrics?.toolCallStarted()
        guard let tracer = telemetry.tracer else { return state.withLock { $0.records[call.callID]?.context } }
        return state.withLock { state -> SpanContext? in
            guard let callSpan = state.records[call.callID]?.span else { return state.records[call.callID]?.context }
            let run = tracer.startFunctionRun(function: call.functionName, call: callSpan)
            state.records[call.callID]?.run = run
            return run.context
        }
    }

    /// Records the call's outcome once, writes it to the audit trail, counts it, ends its spans and reports it.
    func finish(_ call: PendingToolCall, _ outcome: ToolCallOutcome, ranFor: Duration? = nil) {
        let (first, record) = state.withLock { state -> (Bool, CallRecord?) in
            guard state.outcomes.updateValue(outcome, forKey: call.callID) == nil else { return (false, nil) }
            return (true, state.records.removeValue(forKey: call.callID))
        }
        guard first else { return }
        runner.audit.outcome(call, sessionID: sessionID, outcome, duration: ranFor)
        runner.control.finished(call.callID)
        if telemetry.isOn { recordEnd(call, outcome, ranFor: ranFor, record ?? CallRecord()) }
        report(.finished(call.callID, outcome, ranFor: ranFor))
    }

    private func recordEnd(_ call: PendingToolCall, _ outcome: ToolCallOutcome, ranFor: Duration?, _ record: CallRecord) {
        let metricOutcome = ResolveKitMetrics.ToolOutcome(outcome, decidedBy: record.decider, ran: ranFor != nil)
        if record.approvalOpenedAt != nil { telemetry.metrics?.approvalWithdrawn() }
        if let approval = record.approval {
            approval.recordError(type: "withdrawn", description: "The call ended before anyone decided")
            approval.end()
        }
        telemetry.metrics?.toolCallFinished(
            function: call.functionName, outcome: metricOutcome, decidedBy: record.decider, duration: ranFor)
        if let run = record.run {
            if case .failure(let error) = outcome { run.recordError(type: error.code.rawValue) }
            run.end()
        }
        record.span?.setAttribute(SemanticAttributes.approvalDecidedBy, .string(record.decider.rawValue))
        record.span?.finishToolCall(outcome: metricOutcome)
    }
}

extension Duration {
    /// The duration in whole nanoseconds.
    var nanoseconds: Int64 {
        let parts = components
        return parts.seconds * 1_000_000_000 + parts.attoseconds / 1_000_000_000
    }
}
