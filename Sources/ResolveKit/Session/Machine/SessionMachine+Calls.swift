/// Tool calls: admission (each call id once per session), batching, the hand-over to the tools core, outcomes in
/// the journal, and result delivery (`POST /tool-results`, retried with the same idempotency key until the server
/// has it, §7.4).
extension SessionMachine {
    /// A `tool_call_request`: admitted once per (session, call id), then handed to the tools core at once if its
    /// local registration needs no approval, or batched for approval. The event's `requires_approval` is not
    /// trusted (§10.1): a function that is unknown or not allowed needs none, and the tools core refuses it.
    mutating func receive(_ request: ToolCallRequest, envelope: EventEnvelope, _ now: Moment, _ out: inout SessionOutput) {
        guard let session else { return }
        guard !request.callID.isEmpty else {
            return out.log("A call to \(request.functionName) came without a call id and cannot be answered", .warning)
        }
        // The server waits for no call of an ended turn: a replay after a cursor reset can still bring one.
        guard !intake.handledEvents.contains(HandledEvents.endedTurn(envelope.turnID)) else {
            return out.log("Ignored call \(request.callID) (\(request.functionName)): its turn already ended")
        }
        let admission = calls.journal.admit(
            sessionID: session.id, callID: request.callID, turnID: envelope.turnID, functionName: request.functionName)
        guard admission == .admitted else {
            out.log("Ignored a repeated request for call \(request.callID)")
            if case .duplicate(.answered) = admission { kickDelivery(now, &out) }
            return
        }
        // The admission is written with the call's next step (handed on, or its outcome): a call that never ran
        // needs no record to stay run at most once, and each write may be a round trip to a shared store.
        let localApproval = session.allowedNames.contains(request.functionName)
            && settings.functions[request.functionName] == true
        if localApproval != request.requiresApproval {
            out.log(
                "Call \(request.callID): local registration says requiresApproval=\(localApproval); "
                    + "the event's flag is ignored")
        }
        let call = PendingToolCall(
            callID: request.callID, turnID: envelope.turnID, requestID: envelope.requestID,
            functionName: request.functionName, arguments: request.arguments,
            humanDescription: request.humanDescription, requiresApproval: localApproval,
            timeoutSeconds: max(1, request.timeoutSeconds), receivedAt: now.elapsed)
        switch calls.pipeline.admit(call, now: now.elapsed) {
        case .refuse(let error):
            out.publish(.immediateCall(CallDesk.row(call, .running)))
            if turns.record?.turnID == call.turnID { turns.record?.update(CallDesk.row(call, .running)) }
            settleHere(call, .failure(error), decision: .refused, now, &out)
        case .run:
            // Handed on first: the function starts before hosts are shown the call, not after them.
            hand(ToolCallBatch(id: 0, calls: [call]), now, &out)
            out.publish(.immediateCall(CallDesk.row(call, .running)))
            if turns.record?.turnID == call.turnID { turns.record?.update(CallDesk.row(call, .running)) }
        case .armWindow(let deadline):
            arm(.batchWindow, at: deadline, &out)
        case .wait:
            break
        }
    }

    /// A batch's window closed: its calls still open are shown for approval and handed to the tools core.
    mutating func present(_ batch: ToolCallBatch, _ now: Moment, _ out: inout SessionOutput) {
        var batch = batch
        batch.calls.removeAll { !calls.pipeline.isOpen($0.callID) }
        guard !batch.calls.isEmpty else {
            if let next = calls.pipeline.batchFinished() { present(next, now, &out) }
            return
        }
        let rows = batch.calls.map { CallDesk.row($0, .pendingApproval) }
        out.publish(.batch(rows))
        for (call, row) in zip(batch.calls, rows) where turns.record?.turnID == call.turnID { turns.record?.update(row) }
        hand(batch, now, &out)
    }

    /// Hands calls to the tools core once the journal says they were handed on: from then on an approval-free call
    /// may run, so a restart answers it as interrupted (never runs it again). A call that waits for a decision is
    /// marked so only when it asks to start (``startRequested(_:_:)``): a restart while a person decides says it
    /// did not run.
    private mutating func hand(_ batch: ToolCallBatch, _ now: Moment, _ out: inout SessionOutput) {
        guard let session else { return }
        for call in batch.calls {
            if !call.requiresApproval {
                calls.journal.markRunning(CallJournal.Key(sessionID: session.id, callID: call.callID))
            }
            calls.handed.insert(call.callID)
            calls.rows[call.callID] = CallDesk.row(call, call.requiresApproval ? .pendingApproval : .running)
        }
        persistJournal(&out)
        calls.awaitingDurability.append((writes.lastJournal, batch))
        runDurableBatches(now, &out)
    }

    /// Hands on the batches whose journal record is written.
    mutating func runDurableBatches(_ now: Moment, _ out: inout SessionOutput) {
        guard let session else { return }
        while let first = calls.awaitingDurability.first, first.after <= writes.completed {
            calls.awaitingDurability.removeFirst()
            out.append(.runBatch(first.batch, sessionID: session.id, allowedNames: session.allowedNames, epoch: link.epoch))
        }
    }

    /// A decided call asks to start: the journal marks it as possibly run, and it may start once that is written.
    /// A call whose turn or session ended, or that a drain withdrew, may not.
    mutating func startRequested(_ callID: ToolCallID, _ out: inout SessionOutput) {
        guard let session, calls.handed.contains(callID), !calls.abandoned.contains(callID), drainWaiter == nil else {
            return out.append(.permitStart(callID, false))
        }
        calls.journal.markRunning(CallJournal.Key(sessionID: session.id, callID: callID))
        persistJournal(&out)
        calls.awaitingStart.append((writes.lastJournal, callID))
        permitDurableStarts(&out)
    }

    /// Lets the calls start whose journal record is written.
    mutating func permitDurableStarts(_ out: inout SessionOutput) {
        while let first = calls.awaitingStart.first, first.after <= writes.completed {
            calls.awaitingStart.removeFirst()
            out.append(.permitStart(first.callID, true))
        }
    }

    /// Calls waiting for their start to be written may not start after all (their turn or session ended, a drain).
    private mutating func refuseStarts(_ callIDs: Set<ToolCallID>, _ out: inout SessionOutput) {
        for (_, callID) in calls.awaitingStart where callIDs.contains(callID) { out.append(.permitStart(callID, false)) }
        calls.awaitingStart.removeAll { callIDs.contains($0.callID) }
    }

    /// A step of a handed call.
    mutating func callReport(_ report: ToolCallReport, _ now: Moment, _ out: inout SessionOutput) {
        let callID = report.callID
        guard calls.handed.contains(callID), let call = calls.pipeline.openCalls[callID] else { return }
        switch report {
        case .decided(_, let checklist, _):
            calls.rows[callID]?.decision = checklist
            calls.rows[callID]?.decidedAt = now.elapsed
            if checklist == .approved || checklist == .notRequired { calls.approved.insert(callID) }
        case .started:
            calls.approved.remove(callID)
            calls.started.insert(callID)
            guard var row = calls.rows[callID] else { return }
            let wasShownRunning = row.status == .running
            row.status = .running
            row.startedAt = now.elapsed
            if row.decidedAt == nil { row.decidedAt = now.elapsed }
            calls.rows[callID] = row
            // A call that needed no approval is shown running from its arrival; its times come with its outcome.
            if !wasShownRunning { show(row, turnID: call.turnID, &out) }
        case .finished(_, let outcome, _, let span):
            calls.handed.remove(callID)
            calls.approved.remove(callID)
            calls.started.remove(callID)
            let settled = calls.abandoned.remove(callID) != nil
            record(call, outcome, decision: nil, settled: settled, span: span, now, &out)
        }
    }

    /// An outcome the machine settles without the tools core (draining, an ended turn, an ended session): recorded
    /// and written to the audit trail here.
    private mutating func settleHere(
        _ call: PendingToolCall, _ outcome: ToolCallOutcome, decision: ToolCallChecklistItem.Decision?,
        settled: Bool = false, _ now: Moment, _ out: inout SessionOutput
    ) {
        guard let session else { return }
        if record(call, outcome, decision: decision, settled: settled, now, &out) {
            out.append(.auditOutcome(call, sessionID: session.id, outcome))
        }
    }

    /// Saves the outcome in the journal (the first outcome wins), updates the checklist and wakes the deliverer.
    @discardableResult
    private mutating func record(
        _ call: PendingToolCall, _ outcome: ToolCallOutcome, decision: ToolCallChecklistItem.Decision?,
        settled: Bool, span: SpanContext? = nil, _ now: Moment, _ out: inout SessionOutput
    ) -> Bool {
        guard let session else { return false }
        let key = CallJournal.Key(sessionID: session.id, callID: call.callID)
        calls.pipeline.closed(call.callID)
        var row = calls.rows.removeValue(forKey: call.callID) ?? CallDesk.row(call, .running)
        guard calls.journal.recordResult(key, outcome) else { return false }
        if settled { calls.journal.settle(key) }
        persistJournal(&out)
        // The result's post goes out before hosts are told: the server is waiting for it.
        if !settled { kickDelivery(now, &out) }
        if turns.tracker.turnID == call.turnID { turns.tracker.noteActivity(now: now.elapsed) }
        switch outcome {
        case .success(let value):
            row.status = .completed
            row.result = value
        case .failure(let error):
            row.status = error.code == .declined || error.code == .cancelled
                ? .cancelled(reason: error.message) : .failed(error.message)
            row.errorCode = error.code
        }
        if let decision { row.decision = decision }
        if row.decidedAt == nil, row.decision != nil { row.decidedAt = now.elapsed }
        row.finishedAt = now.elapsed
        row.spanContext = span
        show(row, turnID: call.turnID, &out)
        // A call no `ask` of this process waits for (its turn began before a restart) has nobody else to report it.
        let orphan = turns.askWaiters[call.requestID] == nil
        out.log("Call \(call.callID) (\(call.functionName)): \(row.status)", orphan ? .info : .debug, span: span)
        return true
    }

    /// Shows a call's new row to hosts and to the record of its turn.
    private mutating func show(_ row: ToolCallChecklistItem, turnID: String, _ out: inout SessionOutput) {
        out.publish(.callUpdated(row))
        if turns.record?.turnID == turnID { turns.record?.update(row) }
    }

    /// A turn ended with an error or a hand-off: the server waits for none of its calls. Those not handed on are
    /// settled here; handed ones are stopped (running ones cancelled) and settled when their outcome comes, never
    /// posted.
    mutating func abandonCalls(ofTurn turnID: String, reason: String, _ now: Moment, _ out: inout SessionOutput) {
        guard let session else { return }
        var stopped: [ToolCallID] = []
        var emptiedBatch = false
        for call in calls.pipeline.openCalls(ofTurn: turnID) {
            let pending: (taken: Bool, emptied: Int?) =
                calls.handed.contains(call.callID) ? calls.takeAwaitingDurability(call.callID) : (true, nil)
            emptiedBatch = emptiedBatch || pending.emptied != nil
            if pending.taken {
                settleHere(call, .failure(.cancelled("Not run: \(reason)")), decision: .refused, settled: true, now, &out)
            } else {
                stopped.append(call.callID)
                calls.abandoned.insert(call.callID)
            }
        }
        // An approval batch whose calls all went holds the approval queue no more.
        if emptiedBatch, let next = calls.pipeline.batchFinished() { present(next, now, &out) }
        guard !stopped.isEmpty else { return }
        refuseStarts(Set(stopped), &out)
        out.append(.stopCalls(
            stopped, sessionID: session.id, error: .cancelled("Not run: \(reason)"), cancellingRunning: true))
    }

    /// The session's work ended: every open call gets an error result now (the next session drops it, as its token
    /// cannot post it), and the tools core stops what it holds.
    mutating func abandonCalls(_ now: Moment, _ out: inout SessionOutput) {
        guard let session else { return }
        let open = calls.pipeline.endSession()
        let handed = open.map(\.callID).filter { calls.handed.contains($0) }
        refuseStarts(Set(handed), &out)
        if !handed.isEmpty {
            let error = ResolveKitFunctionError.cancelled("The session ended while the call ran")
            out.append(.stopCalls(handed, sessionID: session.id, error: error, cancellingRunning: true))
        }
        for call in open {
            let ran = calls.started.contains(call.callID) || calls.approved.contains(call.callID)
            let message = ran ? "The session ended while the call ran" : "The session ended before the call ran"
            if calls.handed.contains(call.callID) {
                record(call, .failure(.cancelled(message)), decision: nil, settled: false, now, &out)
            } else {
                settleHere(call, .failure(.cancelled(message)), decision: nil, now, &out)
            }
        }
        calls.handed = []
        calls.started = []
        calls.approved = []
        calls.abandoned = []
        calls.rows = [:]
        calls.awaitingDurability = []
        calls.awaitingStart = []
    }

    /// `drain`: no new calls run (they, the queued ones and those still waiting for a decision get an error
    /// result), running calls finish, results are posted, the turn under way gets its answer, and questions not
    /// sent yet are refused; `waiter` is answered once every call has an acknowledged outcome and no `ask` waits
    /// for a turn. A call waiting for a person is withdrawn rather than waited for: the drain would otherwise last
    /// its whole timeout, and a result posted as the run stops has its acknowledgement unrecorded, so the next
    /// process posts it again.
    mutating func drain(_ waiter: WaiterID, _ now: Moment, _ out: inout SessionOutput) {
        if let earlier = drainWaiter { out.append(.reply(earlier, .done(.success(())))) }
        drainWaiter = waiter
        out.log("Draining: new calls are refused; running calls finish and results are posted", .info)
        refuseUnsentQuestions(&out)
        let shuttingDown = ResolveKitFunctionError.cancelled("The service is shutting down; try again later")
        for call in calls.pipeline.beginDrain() { settleHere(call, .failure(shuttingDown), decision: .refused, now, &out) }
        let notStarted = calls.handed.subtracting(calls.started).sorted()
        refuseStarts(Set(notStarted), &out)
        if let session, !notStarted.isEmpty {
            out.append(.stopCalls(notStarted, sessionID: session.id, error: shuttingDown, cancellingRunning: false))
        }
        kickDelivery(now, &out)
    }

    // MARK: Delivery

    /// Posts the oldest unacknowledged result of this session, unless a post is out or waits for its retry. Results
    /// of earlier sessions cannot be posted with this session's token and are dropped with a log line.
    mutating func kickDelivery(_ now: Moment, _ out: inout SessionOutput) {
        // A result is posted only once the journal holds it: the server may act on it at once.
        guard let session, calls.delivery.inFlight == nil, !calls.delivery.isWaiting, writes.journalIsDurable else {
            return
        }
        let (next, dropped) = calls.nextResult(in: session.id)
        for key in dropped { out.log("Dropped the result of \(key.callID): its session \(key.sessionID) ended") }
        if !dropped.isEmpty { persistJournal(&out) }
        guard let next else { return }
        calls.delivery.inFlight = next.callID
        out.append(.send(.toolResult(next), access: session.access, tag: .delivery(next.callID, epoch: link.epoch)))
    }

    /// A result's post answered: acknowledged, no longer awaited, or to be tried again after a backoff. A result
    /// leaves the journal only when the server answered 2xx, or 404/410/422 (it no longer waits for it).
    mutating func deliveryAnswered(
        _ callID: ToolCallID, _ result: Result<BackendAnswer, BackendFailure>, _ now: Moment,
        _ out: inout SessionOutput
    ) {
        guard calls.delivery.inFlight == callID, let session else { return }
        calls.delivery.inFlight = nil
        let key = CallJournal.Key(sessionID: session.id, callID: callID)
        switch result {
        case .success(let answer):
            let deduplicated = answer == .delivered(deduplicated: true)
            settle(key, note: deduplicated ? "already received" : "delivered", &out)
            calls.delivery.failures = 0
            kickDelivery(now, &out)
        case .failure(let failure):
            guard let error = failure.backendError else { return deliveryFailed(callID, cause: "\(failure)", now, &out) }
            switch BackendFailurePolicy.action(.toolResults, error) {
            case .settle:
                settle(key, note: "no longer awaited by the server (\(error))", &out)
                kickDelivery(now, &out)
            case .refreshToken:
                calls.delivery.inFlight = callID
                refreshToken(for: .delivery, &out)
            default:
                deliveryFailed(callID, cause: "\(error)", now, &out)
            }
        }
    }

    /// The post failed in a way a later try may fix: wait a backoff, then post again.
    mutating func deliveryFailed(
        _ callID: ToolCallID? = nil, cause: String? = nil, _ now: Moment, _ out: inout SessionOutput
    ) {
        let failed = callID ?? calls.delivery.inFlight
        calls.delivery.inFlight = nil
        calls.delivery.failures += 1
        let delay = Backoff.delay(forAttempt: calls.delivery.failures, random: jitter())
        let because = cause.map { " (\($0))" } ?? ""
        out.log(
            "Posting the result of \(failed.map(\.rawValue) ?? "a call") failed\(because); retrying in \(delay.inWords)",
            .warning)
        calls.delivery.isWaiting = true
        arm(.deliveryRetry, at: now.elapsed + delay, &out)
    }

    private mutating func settle(_ key: CallJournal.Key, note: String, _ out: inout SessionOutput) {
        guard calls.journal.status(key) != .settled, calls.journal.status(key) != nil else { return }
        calls.journal.settle(key)
        persistJournal(&out)
        out.log("Result of \(key.callID) \(note)")
        out.publish(.delivered(key.callID))
    }
}
