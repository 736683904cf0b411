import ResolveKitTelemetry
import Synchronization

/// What one ``ToolCallRunner/run(_:in:allowedNames:deadlines:trace:startPermit:report:)`` shares between its
/// calls: where to report, the outcomes so far, and what telemetry keeps about each call until its outcome.
/// Finishing a call reports it once, records it, and frees its place in the control.
///
/// A call's spans are begun as values (``PendingSpan``: ids and a start time) and recorded once the call is over,
/// after its outcome was reported, so the span work never delays a call's start or its result's post.
final class BatchRun: Sendable {
    /// What telemetry keeps about one call: its spans begun, when its approval wait began, who decided it.
    struct CallRecord {
        var span: PendingSpan?
        /// The context the call's work descends from: its span's, or the parent's when nothing is traced.
        var context: SpanContext?
        var approval: PendingSpan?
        var approvalOpenedAt: Duration?
        var decider = ResolveKitMetrics.Decider.automatic
        var run: PendingSpan?
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
    /// Asked before a call that waited for a decision starts; `nil` lets it start at once.
    let startPermit: (@Sendable (ToolCallID) async -> Bool)?
    private let state = Mutex(State())

    init(
        runner: ToolCallRunner, sessionID: String, deadlines: ToolCallDeadlines, trace: ToolCallTrace,
        startPermit: (@Sendable (ToolCallID) async -> Bool)?, report: @escaping @Sendable (ToolCallReport) -> Void
    ) {
        self.runner = runner
        self.sessionID = sessionID
        self.deadlines = deadlines
        self.trace = trace
        self.startPermit = startPermit
        self.report = report
    }

    private var telemetry: ToolCallTelemetry { runner.telemetry }

    var outcomes: [ToolCallID: ToolCallOutcome] { state.withLock { $0.outcomes } }

    /// The call arrived in the runner: its span begins (dated from its arrival), under the trace's parent, and
    /// its function's `run` span is given its ids. Returns the context its function will see: the `run` span's, or
    /// the parent's when nothing is traced.
    func begin(_ call: PendingToolCall) -> SpanContext? {
        let parent = trace.parent(call)
        var record = CallRecord()
        if let tracer = telemetry.tracer {
            let now = telemetry.time.now()
            let waited = UInt64(max(0, (runner.clock.elapsed - call.receivedAt).nanoseconds))
            let span = tracer.begin(parent: parent, startTime: now > waited ? now - waited : now)
            record.span = span
            record.context = span.context
            // Dated when the function starts, from its running time (see finish).
            record.run = tracer.begin(parent: .context(span.context), startTime: now)
        } else {
            record.context = parent.context
        }
        guard telemetry.metrics != nil || record.context != nil else { return nil }
        let context = record.run?.context ?? record.context
        // Moved into the table, not copied: a copy retains each of its spans' strings.
        var moving = Optional(record)
        state.withLock { $0.records[call.callID] = moving.take() }
        return context
    }

    /// The call waits for a decision from now on.
    func approvalOpened(_ call: PendingToolCall) {
        guard telemetry.isOn else { return }
        telemetry.metrics?.approvalRequested()
        let now = runner.clock.elapsed
        state.withLock { state in
            guard var record = state.records[call.callID] else { return }
            record.approval = record.span.flatMap { telemetry.tracer?.begin(parent: .context($0.context)) }
            record.approvalOpenedAt = now
            state.records[call.callID] = record
        }
    }

    /// Reports the decision and, when the call waited for it (`waited`), records who decided and after how long.
    func decided(
        _ call: PendingToolCall, _ checklist: ToolCallChecklistItem.Decision, _ decision: ToolCallDecision?,
        waited: Bool = true
    ) {
        if telemetry.isOn, waited {
            let decider = decision.map { ResolveKitMetrics.Decider($0.decider) } ?? .automatic
            let now = runner.clock.elapsed
            let (approval, openedAt) = state.withLock { state -> (PendingSpan?, Duration?) in
                guard var record = state.records[call.callID] else { return (nil, nil) }
                let waited = (record.approval, record.approvalOpenedAt)
                record.decider = decider
                record.approval = nil
                record.approvalOpenedAt = nil
                state.records[call.callID] = record
                return waited
            }
            if let openedAt { telemetry.metrics?.approvalDecided(by: decider, wait: now - openedAt) }
            if let approval {
                telemetry.tracer?.endApproval(
                    approval, function: call.functionName, decidedBy: decider, approved: decision?.approves ?? false)
            }
        }
        report(.decided(call.callID, checklist: checklist, decision: decision))
    }

    /// The call's function starts now.
    func runStarted() {
        telemetry.metrics?.toolCallStarted()
    }

    /// Records the call's outcome once, writes it to the audit trail, counts it, reports it, then records its
    /// spans (they are exported later anyway; a count is read by whoever saw the outcome).
    func finish(_ call: PendingToolCall, _ outcome: ToolCallOutcome, ranFor: Duration? = nil) {
        let ended = telemetry.tracer == nil ? 0 : telemetry.time.now()
        let (first, record) = state.withLock { state -> (Bool, CallRecord?) in
            guard state.outcomes.updateValue(outcome, forKey: call.callID) == nil else { return (false, nil) }
            return (true, state.records.removeValue(forKey: call.callID))
        }
        guard first else { return }
        runner.audit.outcome(call, sessionID: sessionID, outcome, duration: ranFor)
        runner.control.finished(call.callID)
        let decider = record?.decider ?? .automatic
        let metricOutcome = ResolveKitMetrics.ToolOutcome(outcome, decidedBy: decider, ran: ranFor != nil)
        if let metrics = telemetry.metrics {
            if let record, record.approvalOpenedAt != nil { metrics.approvalWithdrawn() }
            metrics.toolCallFinished(
                function: call.functionName, outcome: metricOutcome, decidedBy: decider, duration: ranFor)
        }
        trace.finished(call.callID, record?.context)
        report(.finished(call.callID, outcome, ranFor: ranFor, span: record?.context))
        if let record, let tracer = telemetry.tracer {
            recordSpans(record, call, outcome, metricOutcome, ranFor, ended, tracer)
        }
    }

    private func recordSpans(
        _ record: CallRecord, _ call: PendingToolCall, _ outcome: ToolCallOutcome,
        _ metricOutcome: ResolveKitMetrics.ToolOutcome, _ ranFor: Duration?, _ ended: UInt64, _ tracer: Tracer
    ) {
        if let approval = record.approval {
            tracer.endApproval(approval, function: call.functionName, decidedBy: nil, approved: false, endTime: ended)
        }
        if let run = record.run, let ranFor {
            // The run's clock may be a test's: its start never goes before its call's.
            let ran = UInt64(max(0, ranFor.nanoseconds))
            let start = max(ended > ran ? ended - ran : ended, record.span?.startTimeUnixNano ?? 0)
            tracer.endFunctionRun(
                run.dated(from: start), function: call.functionName,
                errorType: outcome.failure?.code.rawValue, endTime: ended)
        }
        if let span = record.span {
            tracer.endToolCall(
                span, function: call.functionName, callID: call.callID.rawValue, outcome: metricOutcome,
                decidedBy: record.decider, endTime: ended)
        }
    }
}

extension Duration {
    /// The duration in whole nanoseconds.
    var nanoseconds: Int64 {
        let parts = components
        return parts.seconds * 1_000_000_000 + parts.attoseconds / 1_000_000_000
    }
}
