import Synchronization

/// Takes a batch of tool calls from admission to outcomes, whichever front end they came from (a backend session
/// or an MCP client): the function must be registered and allowed and the arguments must fit its schema; a call
/// whose function needs approval is decided by a remembered decision, the approver or anyone through
/// ``ToolApprovals`` before its deadline; approved calls run under the one concurrency limit with their deadlines;
/// every decision and outcome goes to the audit trail. Each step is reported as it happens.
///
/// The front end stays in charge of its calls through ``control``: it may withdraw a call that has not started
/// (``withdraw(_:in:because:)``) or cancel one that runs.
package struct ToolCallRunner: Sendable {
    package let dispatcher: ToolDispatcher
    package let approvals: ToolApprovals
    package let approver: any ToolApprover
    package let audit: AuditRecords
    package let control: ToolCallControl
    /// Whether approved calls of a batch run one after another (the reference SDK's order) or at once.
    package let runsSequentially: Bool
    /// Where a call's progress goes (an MCP client's progress token), by call.
    package let progress: @Sendable (ToolCallID) -> (@Sendable (Double, Double?, String?) -> Void)?
    /// What each call's metrics and spans are recorded through.
    package let telemetry: ToolCallTelemetry

    /// A runner over `dispatcher`'s registry.
    package init(
        dispatcher: ToolDispatcher, approvals: ToolApprovals, approver: any ToolApprover, audit: AuditRecords,
        control: ToolCallControl, runsSequentially: Bool, telemetry: ToolCallTelemetry = .off,
        progress: @escaping @Sendable (ToolCallID) -> (@Sendable (Double, Double?, String?) -> Void)? = { _ in nil }
    ) {
        self.telemetry = telemetry
        self.dispatcher = dispatcher
        self.approvals = approvals
        self.approver = approver
        self.audit = audit
        self.control = control
        self.runsSequentially = runsSequentially
        self.progress = progress
    }

    var clock: ResolveKitClock { dispatcher.clock }

    /// Runs `batch` to the end: every call gets exactly one ``ToolCallReport/finished(_:_:ranFor:)``, in the order
    /// their outcomes come, and the outcomes are returned. Cancelling the calling task declines what is undecided
    /// and cancels what runs. Until its first suspension this runs on the caller's thread, and an approval-free call
    /// with a free slot starts there. Each call's span descends from the parent `trace` gives it.
    ///
    /// A call that waited for a decision starts only once `startPermit` (when given) says it may: a front end that
    /// keeps a journal records first that the call may have run, so a crash while a person decides is reported as
    /// "not run" rather than "may have run". A call refused a start ends with its stop error, or `cancelled`.
    @discardableResult
    package func run(
        _ batch: ToolCallBatch, in sessionID: String, allowedNames: Set<String>, deadlines: ToolCallDeadlines,
        trace: ToolCallTrace = .none, startPermit: (@Sendable (ToolCallID) async -> Bool)? = nil,
        report: @escaping @Sendable (ToolCallReport) -> Void
    ) async -> [ToolCallID: ToolCallOutcome] {
        control.hand(batch.calls.map(\.callID))
        let run = BatchRun(
            runner: self, sessionID: sessionID, deadlines: deadlines, trace: trace, startPermit: startPermit,
            report: report)
        let admitted = admit(batch, allowedNames: allowedNames, run)
        var approved = admitted.filter { !$0.needsDecision }
        let gated = admitted.filter(\.needsDecision)
        if !gated.isEmpty { approved += await decide(gated, batchID: batch.id, run) }
        if runsSequentially || approved.count == 1 {
            for call in approved { await execute(call, run) }
        } else {
            await withDiscardingTaskGroup { group in
                for call in approved { group.addTask { await execute(call, run) } }
            }
        }
        return run.outcomes
    }

    /// The calls of `batch` that may go on: each one's span begun, a stopped or refused call finished, then each
    /// call that needs no approval (and that no rule of the approver gates) approved as such.
    ///
    /// Not inlined: a task allocates an async function's frame whole, and with this work in it the frame of
    /// ``run(_:in:allowedNames:deadlines:trace:startPermit:report:)`` was 5.5 KiB, taken from `malloc` before a
    /// call starts.
    @inline(never)
    private func admit(_ batch: ToolCallBatch, allowedNames: Set<String>, _ run: BatchRun) -> [Admitted] {
        var admitted: [Admitted] = []
        for call in batch.calls {
            let spanContext = run.begin(call)
            if let stopped = control.stopError(call.callID) {
                run.finish(call, .failure(stopped))
                continue
            }
            switch dispatcher.prepare(call, allowedNames: allowedNames) {
            case .failure(let refusal):
                run.decided(call, .refused, nil, waited: false)
                run.finish(call, .failure(refusal))
            case .success(let prepared):
                admitted.append(
                    Admitted(
                        call: call, function: prepared.function, arguments: prepared.arguments,
                        needsDecision: call.requiresApproval || approver.gates(call), spanContext: spanContext))
            }
        }
        let automatic = ToolCallDecision.attributed(.approve, by: .automatic(reason: "the function needs no approval"))
        for index in admitted.indices where !admitted[index].needsDecision {
            admitted[index].decision = automatic
            audit.decision(admitted[index].call, sessionID: run.sessionID, batchID: 0, automatic)
            run.decided(admitted[index].call, .notRequired, automatic, waited: false)
        }
        return admitted
    }

    /// Stops calls of `sessionID` that have not started: withdrawn from approval if they wait for it, they end with
    /// `error`. Running calls go on.
    package func withdraw(_ callIDs: [ToolCallID], in sessionID: String, because error: ResolveKitFunctionError) {
        control.withdraw(callIDs, because: error)
        approvals.close(callIDs, in: sessionID)
    }

    /// Stops calls of `sessionID`: those not started end with `error`, running ones are cancelled.
    package func cancel(_ callIDs: [ToolCallID], in sessionID: String, because error: ResolveKitFunctionError) {
        control.cancel(callIDs, because: error)
        approvals.close(callIDs, in: sessionID)
    }

    /// Waits for a slot, then starts the call's function; its end is reported from the thread that settles it.
    private func execute(_ admitted: Admitted, _ run: BatchRun) async {
        let call = admitted.call
        if admitted.needsDecision, let startPermit = run.startPermit, !(await startPermit(call.callID)) {
            let refused = control.stopError(call.callID) ?? .cancelled("Not run: its session ended before it started")
            run.finish(call, .failure(refused))
            return
        }
        if let stopped = await control.claim(call.callID) {
            run.finish(call, .failure(stopped))
            return
        }
        run.report(.started(call.callID))
        run.runStarted()
        let started = clock.elapsed
        var effective = call
        if let edited = admitted.editedArguments { effective.arguments = edited }
        let running = dispatcher.start(
            admitted.function, arguments: admitted.arguments, call: effective, sessionID: run.sessionID,
            deadline: run.deadlines.run(call, started), spanContext: admitted.spanContext,
            progress: progress(call.callID)
        ) { [clock] outcome in
            var outcome = outcome
            if let edited = admitted.editedArguments { outcome = outcome.noting(editedArguments: edited) }
            run.finish(call, outcome, ranFor: clock.elapsed - started)
        }
        control.started(call.callID, running)
        _ = await running.outcome()
    }
}

/// A call that passed admission: its function, its coerced arguments, and once decided, the decision.
struct Admitted: Sendable {
    var call: PendingToolCall
    var function: any AnyResolveKitFunction.Type
    var arguments: JSONObject
    /// Whether it waits for a decision: its function needs approval, or a rule of the approver gates it.
    var needsDecision: Bool
    var decision: ToolCallDecision = .approve
    /// Arguments a person edited before approving, already validated.
    var editedArguments: JSONValue?
    /// The context its function sees: its `run` span's, or its caller's.
    var spanContext: SpanContext?
}
