extension SessionEngine {
    /// A `tool_call_request`: admitted once per (session, call id), then run at once if its local registration
    /// needs no approval, or batched for approval. The event's `requires_approval` is not trusted (§10.1); a call
    /// to a function that is unknown or not allowed in the session is refused at once, never shown for approval.
    func receive(_ request: ToolCallRequest, envelope: EventEnvelope) {
        guard let session else { return }
        guard !request.callID.isEmpty else {
            output.log(
                "A call to \(request.functionName) came without a call id and cannot be answered", level: .warning)
            return
        }
        // The server waits for no call of an ended turn: it timed the call out. A replay after a cursor reset
        // can still bring such a call, unseen until then; running it now would act on a request nobody awaits.
        guard !progress.handledEvents.contains(HandledEvents.endedTurn(envelope.turnID)) else {
            output.log("Ignored call \(request.callID) (\(request.functionName)): its turn already ended")
            return
        }
        let admission = outbox.admit(
            CallJournal.Key(sessionID: session.id, callID: request.callID), turnID: envelope.turnID,
            functionName: request.functionName)
        guard admission == .admitted else {
            output.log("Ignored a repeated request for call \(request.callID)")
            if case .duplicate(.answered) = admission { kickDelivery() }
            return
        }
        persistJournal()
        let isAllowed = allowedNames.contains(request.functionName)
        let localApproval =
            isAllowed && registry.function(named: request.functionName)?.resolveKitRequiresApproval == true
        if localApproval != request.requiresApproval {
            output.log(
                "Call \(request.callID): local registration says requiresApproval=\(localApproval); "
                    + "the event's flag is ignored"
            )
        }
        let call = PendingToolCall(
            callID: request.callID, turnID: envelope.turnID, requestID: envelope.requestID,
            functionName: request.functionName, arguments: request.arguments,
            humanDescription: request.humanDescription,
            requiresApproval: localApproval, timeoutSeconds: max(1, request.timeoutSeconds), receivedAt: clock.elapsed)
        // Calls this session may not run, and any call while draining, are answered without a batch or a slot.
        let refusal: ResolveKitFunctionError?
        if case .failure(let error) = dispatcher.check(call, allowedNames: allowedNames) {
            refusal = error
        } else {
            refusal = nil
        }
        switch pipeline.admit(call, refusal: refusal, now: clock.elapsed) {
        case .refuse(let error):
            addImmediate(call)
            record(call, .failure(error), decision: .refused)
        case .run:
            addImmediate(call)
            audit.decision(
                call, sessionID: session.id, batchID: 0,
                .attributed(.approve, by: .automatic(reason: "the function needs no approval")))
            runWithoutApproval(call)
        case .armWindow(let deadline):
            enqueue { [clock] in
                do { try await clock.sleep(untilElapsed: deadline) } catch { return }
                await self.windowElapsed()
            }
        case .wait:
            break
        }
    }

    private func addImmediate(_ call: PendingToolCall) {
        var item = Self.item(call, .running)
        item.decision = .notRequired
        output.update { $0.addImmediate(item) }
        if turnRecord?.turnID == call.turnID { turnRecord?.update(item) }
    }

    func enqueue(_ job: @escaping @Sendable () async -> Void) {
        channels.work?.yield(.run(job))
    }

    private func windowElapsed() {
        if let batch = pipeline.windowElapsed() { present(batch) }
    }

    private func present(_ batch: ToolCallBatch) {
        enqueue { await self.process(batch) }
    }

    /// Asks for approval with each call's deadline, declines what expires or is declined, runs the rest. A
    /// remembered decision approves a call first unless a rule denies it; then the approver and anyone through
    /// ``ToolApprovals`` decide, the first decision per call winning.
    private func process(_ batch: ToolCallBatch) async {
        let items = batch.calls.map { Self.item($0, .pendingApproval) }
        var checklist = ToolCallChecklistBatch(id: 0, items: items)
        output.update { checklist = $0.startBatch(items) }
        for (call, item) in zip(batch.calls, items) where turnRecord?.turnID == call.turnID { turnRecord?.update(item) }
        output.emit(.toolBatchAwaitingApproval(checklist))
        var remaining = batch.calls.filter { pipeline.isOpen($0.callID) }
        var approved: [(call: PendingToolCall, edited: JSONValue?)] = []
        if let sessionID = session?.id, !remaining.isEmpty {
            approved = await decide(&remaining, batch: batch.id, sessionID: sessionID)
        }
        if configuration.runsApprovedCallsSequentially {
            for (call, edited) in approved { await execute(call, decision: .approved, editedArguments: edited) }
        } else {
            await withDiscardingTaskGroup { group in
                for (call, edited) in approved {
                    group.addTask { await self.execute(call, decision: .approved, editedArguments: edited) }
                }
            }
        }
        if let next = pipeline.batchFinished() { present(next) }
    }

    /// Remembered decisions first (unless a rule denies the call), then the approver and anyone through
    /// ``ToolApprovals`` until each call's deadline; declines are recorded, the approved calls returned.
    private func decide(
        _ remaining: inout [PendingToolCall], batch batchID: Int, sessionID: String
    ) async -> [(call: PendingToolCall, edited: JSONValue?)] {
        let approver = configuration.approver
        approvals.open(
            approvalRequest(batchID, remaining, sessionID),
            deadlines: Dictionary(uniqueKeysWithValues: remaining.map { ($0.callID, executionDeadline($0)) }),
            clock: clock, registry: registry)
        defer { approvals.close(remaining.map(\.callID), in: sessionID) }
        for call in remaining where !approver.denies(call) {
            if let remembered = approvals.rememberedDecision(for: call, sessionID: sessionID) {
                try? approvals.decide(
                    [(call.callID, .attributed(.approve, by: .remembered(id: remembered.id)))], in: sessionID)
            }
        }
        var approved: [(call: PendingToolCall, edited: JSONValue?)] = []
        while !remaining.isEmpty, session != nil {
            let undecided = remaining.filter { approvals.decision(for: $0.callID, in: sessionID) == nil }
            if !undecided.isEmpty {
                let deadline = undecided.map(executionDeadline).min()!
                let request = approvalRequest(batchID, undecided, sessionID)
                let approvals = approvals
                let outcome = await DeadlineRace<Void>(clock: clock).run(until: deadline) {
                    await approvals.collect(request, from: approver)
                }
                switch outcome {
                case .timedOut:
                    let now = clock.elapsed
                    approvals.expire(undecided.filter { executionDeadline($0) <= now }.map(\.callID), in: sessionID)
                case .cancelled:
                    for call in remaining { record(call, .failure(.cancelled("Cancelled while awaiting approval"))) }
                    return []
                case .finished:
                    break
                }
            }
            var decided: [String] = []
            for call in remaining {
                guard let decision = approvals.decision(for: call.callID, in: sessionID) else { continue }
                decided.append(call.callID)
                audit.decision(call, sessionID: sessionID, batchID: batchID, decision)
                switch decision.verdict {
                case .approve, .attributed: approved.append((call, nil))
                case .approveEdited(let arguments): approved.append((call, arguments))
                case .decline(let reason):
                    record(call, .failure(.declined(reason ?? "User denied action")), decision: .declined)
                }
            }
            approvals.close(decided, in: sessionID)
            remaining.removeAll { decided.contains($0.callID) }
            // Calls whose turn ended meanwhile already have their outcome.
            approvals.close(remaining.filter { !pipeline.isOpen($0.callID) }.map(\.callID), in: sessionID)
            remaining.removeAll { !pipeline.isOpen($0.callID) }
        }
        return approved
    }

    private func approvalRequest(_ batchID: Int, _ calls: [PendingToolCall], _ sessionID: String) -> ToolApprovalRequest
    {
        ToolApprovalRequest(
            batchID: batchID,
            calls: calls.map { .init(call: $0, timeRemaining: executionDeadline($0) - clock.elapsed) },
            sessionID: sessionID)
    }

    var audit: AuditRecords {
        AuditRecords(trail: configuration.auditTrail) { [output] in output.log($0, level: .error) }
    }

    /// When a call must have its result: the server's deadline less a margin for posting it (a tenth of the
    /// timeout at most).
    func executionDeadline(_ call: PendingToolCall) -> Duration {
        call.serverDeadline - min(configuration.resultDeliveryMargin, .seconds(call.timeoutSeconds) / 10)
    }

    /// Waits for a slot under the one concurrency limit, validates and runs one call, then records its outcome.
    /// A call that got its outcome another way meanwhile (its turn ended, the runtime drains) is not run. With
    /// `editedArguments`, it runs with those, and its result tells the model a person changed them.
    func execute(
        _ call: PendingToolCall, decision: ToolCallChecklistItem.Decision, editedArguments: JSONValue? = nil
    ) async {
        guard session != nil, pipeline.isOpen(call.callID) else { return }
        guard await acquireSlot(call.callID),
            let started = start(call, decision: decision, editedArguments: editedArguments)
        else { return }
        await finish(started)
    }

    /// An approval-free call starts here, on the event's own hop, when a slot is free: its function runs here until
    /// its first suspension (``ToolDispatcher/start(_:arguments:call:sessionID:deadline:progress:)``), and only
    /// waiting for its outcome is a job. Each hop through the job queue waits behind every other session's work, so
    /// under load this is what keeps a call's start within milliseconds of its event. Without a free slot it waits
    /// in a job.
    func runWithoutApproval(_ call: PendingToolCall) {
        guard pipeline.takeFreeSlot() else {
            enqueue { await self.execute(call, decision: .notRequired) }
            return
        }
        guard let started = start(call, decision: .notRequired, editedArguments: nil) else { return }
        enqueue { await self.finish(started) }
    }

    /// A call that holds a slot and whose function started.
    struct StartedCall: Sendable {
        let call: PendingToolCall
        let decision: ToolCallChecklistItem.Decision
        let editedArguments: JSONValue?
        let startedAt: Duration
        let running: RunningCall
    }

    /// With a slot held: validates the call, marks it running and starts its function; `nil` when it did not
    /// start (it was closed meanwhile, or its arguments were refused: that outcome is recorded), and then the slot
    /// is freed.
    private func start(
        _ call: PendingToolCall, decision: ToolCallChecklistItem.Decision, editedArguments: JSONValue?
    ) -> StartedCall? {
        guard let session, pipeline.isOpen(call.callID) else {
            releaseSlot()
            return nil
        }
        var effective = call
        if let editedArguments { effective.arguments = editedArguments }
        switch dispatcher.prepare(effective, allowedNames: allowedNames) {
        case .failure(let error):
            record(call, .failure(error), decision: decision)
            releaseSlot()
            return nil
        case .success(let prepared):
            outbox.markRunning(CallJournal.Key(sessionID: session.id, callID: call.callID))
            persistJournal()
            let now = clock.elapsed
            var item = Self.item(effective, .running)
            item.decision = decision
            item.decidedAt = now
            item.startedAt = now
            show(item, turnID: call.turnID)
            let running = dispatcher.start(
                prepared.function, arguments: prepared.arguments, call: effective, sessionID: session.id,
                deadline: executionDeadline(call))
            runningCalls[call.callID] = running
            return StartedCall(
                call: effective, decision: decision, editedArguments: editedArguments, startedAt: now, running: running)
        }
    }

    /// Waits for a started call's end (cancelling this job cancels the call), records its outcome and frees its
    /// slot.
    private func finish(_ started: StartedCall) async {
        defer { releaseSlot() }
        var outcome = await started.running.outcome()
        runningCalls[started.call.callID] = nil
        if let editedArguments = started.editedArguments { outcome = outcome.noting(editedArguments: editedArguments) }
        record(started.call, outcome, decision: started.decision, startedAt: started.startedAt)
    }

    /// Waits for a slot; `false` when the session's work ended first.
    private func acquireSlot(_ callID: String) async -> Bool {
        if pipeline.requestSlot(callID) { return true }
        return await withCheckedContinuation { waiting.slots[callID] = $0 }
    }

    private func releaseSlot() {
        guard let next = pipeline.releaseSlot() else { return }
        waiting.slots.removeValue(forKey: next)?.resume(returning: true)
    }

    /// Saves the outcome in the journal (first outcome wins), updates the checklist and wakes the deliverer.
    func record(
        _ call: PendingToolCall, _ outcome: ToolCallOutcome, decision: ToolCallChecklistItem.Decision? = nil,
        startedAt: Duration? = nil, settled: Bool = false
    ) {
        guard let session else { return }
        let key = CallJournal.Key(sessionID: session.id, callID: call.callID)
        if pipeline.closed(call.callID) { waiting.slots.removeValue(forKey: call.callID)?.resume(returning: false) }
        guard outbox.record(key, outcome.submissionOutcome, settled: settled) else { return }
        persistJournal()
        audit.outcome(call, sessionID: session.id, outcome, duration: startedAt.map { clock.elapsed - $0 })
        if turns.turnID == call.turnID { turns.noteActivity(now: clock.elapsed) }
        let status: ToolCallChecklistItem.Status
        switch outcome {
        case .success: status = .completed
        case .failure(let error) where error.code == .declined || error.code == .cancelled:
            status = .cancelled(reason: error.message)
        case .failure(let error): status = .failed(error.message)
        }
        var item = Self.item(call, status)
        if case .success(let value) = outcome { item.result = value }
        item.decision = decision
        item.decidedAt = decision.map { _ in startedAt ?? clock.elapsed }
        item.startedAt = startedAt
        item.finishedAt = clock.elapsed
        show(item, turnID: call.turnID)
        output.log("Call \(call.callID) (\(call.functionName)): \(status)")
        if !settled { kickDelivery() }
    }

    /// A turn ended with an error or a hand-off: the server waits for none of its calls, so running ones are
    /// cancelled and undecided ones declined, and their outcomes are kept locally instead of posted.
    func abandonCalls(ofTurn turnID: String, reason: String) {
        for call in pipeline.openCalls(ofTurn: turnID) {
            if let task = runningCalls[call.callID] {
                task.cancel()
                continue
            }
            record(call, .failure(.cancelled("Not run: \(reason)")), decision: .refused, settled: true)
        }
    }

    /// Calls admitted but without an outcome when a session's work ends get an error result: those waiting for
    /// their window, approval or a slot, and those whose job was still queued when the job group ended (it is
    /// dropped, never run; a call started before its job was queued is cancelled). Without this their turn would
    /// wait for ever, and so would the turn watchdog.
    func abandonUnstartedCalls() {
        let (open, waitingForSlot) = pipeline.endSession()
        for callID in waitingForSlot { waiting.slots.removeValue(forKey: callID)?.resume(returning: false) }
        for waiter in waiting.slots.values { waiter.resume(returning: false) }
        waiting.slots = [:]
        for call in open {
            if let running = runningCalls.removeValue(forKey: call.callID) {
                running.cancel()
                record(call, .failure(.cancelled("The session ended while the call ran")))
            } else {
                record(call, .failure(.cancelled("The session ended before the call ran")))
            }
        }
    }

    /// Shows a call's new state to hosts and to the record of its turn.
    func show(_ item: ToolCallChecklistItem, turnID: String) {
        output.updateItem(item)
        if turnRecord?.turnID == turnID { turnRecord?.update(item) }
    }

    static func item(_ call: PendingToolCall, _ status: ToolCallChecklistItem.Status) -> ToolCallChecklistItem {
        var item = ToolCallChecklistItem(
            id: call.callID, functionName: call.functionName, humanDescription: call.humanDescription,
            arguments: call.arguments, requiresApproval: call.requiresApproval, status: status)
        item.receivedAt = call.receivedAt
        return item
    }

    /// Stops taking new work: calls that arrive from now on, and calls still waiting for their batch window or
    /// in the queue, are answered with an error; calls already approved or running go on.
    func beginDrain() {
        output.log("Draining: new calls are refused; running calls finish and results are posted", level: .info)
        for call in pipeline.beginDrain(waitingForSlot: Array(waiting.slots.keys)) {
            record(call, .failure(.cancelled("The service is shutting down; try again later")), decision: .refused)
        }
        kickDelivery()
    }

    /// Whether every admitted call has an outcome and every outcome has been acknowledged.
    var isIdle: Bool {
        pipeline.isIdle && outbox.isEmpty
    }
}
