extension SessionEngine {
    /// A `tool_call_request`: admitted once per (session, call id), then run at once if its local registration
    /// needs no approval, or batched for approval. The event's `requires_approval` is not trusted (§10.1); a call
    /// to a function that is unknown or not allowed in the session is refused at once, never shown for approval.
    func receive(_ request: ToolCallRequest, envelope: EventEnvelope) {
        guard let session else { return }
        guard !request.callID.isEmpty else {
            output.log("A call to \(request.functionName) came without a call id and cannot be answered", level: .warning)
            return
        }
        // The server waits for no call of an ended turn: it timed the call out. A replay after a cursor reset
        // can still bring such a call, unseen until then; running it now would act on a request nobody awaits.
        guard !handledEvents.contains(HandledEvents.endedTurn(envelope.turnID)) else {
            output.log("Ignored call \(request.callID) (\(request.functionName)): its turn already ended")
            return
        }
        let admission = journal.admit(
            sessionID: session.id, callID: request.callID, turnID: envelope.turnID, functionName: request.functionName)
        guard admission == .admitted else {
            output.log("Ignored a repeated request for call \(request.callID)")
            if case .duplicate(.answered) = admission { deliveryKick?.yield() }
            return
        }
        persistJournal()
        // Calls this session may not run are refused without bothering the approver.
        let isAllowed = allowedNames.contains(request.functionName)
        let localApproval = isAllowed && registry.function(named: request.functionName)?.resolveKitRequiresApproval == true
        if localApproval != request.requiresApproval {
            output.log("Call \(request.callID): local registration says requiresApproval=\(localApproval); the event's flag is ignored")
        }
        let call = PendingToolCall(
            callID: request.callID, turnID: envelope.turnID, requestID: envelope.requestID,
            functionName: request.functionName, arguments: request.arguments, humanDescription: request.humanDescription,
            requiresApproval: localApproval, timeoutSeconds: max(1, request.timeoutSeconds), receivedAt: clock.elapsed)
        openCalls[call.callID] = call
        if isDraining {
            output.update { $0.addImmediate(Self.item(call, .pendingApproval)) }
            record(call, .failure(.cancelled("The service is shutting down; try again later")))
            return
        }
        switch batcher.receive(call, now: clock.elapsed) {
        case .runImmediately(let call):
            output.update { $0.addImmediate(Self.item(call, .running)) }
            startImmediate(call)
        case .armWindow(let deadline):
            enqueue { [clock] in
                do { try await clock.sleep(untilElapsed: deadline) } catch { return }
                await self.windowElapsed()
            }
        case .none:
            break
        }
    }

    func enqueue(_ job: @escaping @Sendable () async -> Void) {
        jobs?.yield(job)
    }

    private func startImmediate(_ call: PendingToolCall) {
        guard runningImmediateCalls < configuration.maxConcurrentCalls else {
            waitingImmediateCalls.append(call)
            return
        }
        runningImmediateCalls += 1
        enqueue {
            await self.execute(call)
            await self.immediateCallFinished()
        }
    }

    private func immediateCallFinished() {
        runningImmediateCalls -= 1
        if !waitingImmediateCalls.isEmpty { startImmediate(waitingImmediateCalls.removeFirst()) }
    }

    private func windowElapsed() {
        if case .present(let batch) = batcher.windowElapsed() { present(batch) }
    }

    private func present(_ batch: ToolCallBatch) {
        enqueue { await self.process(batch) }
    }

    /// Asks for approval with each call's deadline, declines what expires or is declined, runs the rest.
    private func process(_ batch: ToolCallBatch) async {
        let items = batch.calls.map { Self.item($0, .pendingApproval) }
        var checklist = ToolCallChecklistBatch(id: 0, items: items)
        output.update { checklist = $0.startBatch(items) }
        output.emit(.toolBatchAwaitingApproval(checklist))
        var remaining = batch.calls
        var approved: [PendingToolCall] = []
        while !remaining.isEmpty, let session {
            let deadline = remaining.map(executionDeadline).min()!
            let request = ToolApprovalRequest(
                batchID: batch.id,
                calls: remaining.map { .init(call: $0, timeRemaining: executionDeadline($0) - clock.elapsed) },
                sessionID: session.id)
            let approver = configuration.approver
            let outcome = await DeadlineRace<ToolBatchDecision>(clock: clock).run(until: deadline) {
                await approver.decide(request)
            }
            switch outcome {
            case .finished(.success(let decision)):
                for call in remaining {
                    switch decision.decision(for: call.callID) {
                    case .approve: approved.append(call)
                    case .decline(let reason): record(call, .failure(.declined(reason ?? "User denied action")))
                    }
                }
                remaining = []
            case .timedOut:
                let now = clock.elapsed
                for call in remaining where executionDeadline(call) <= now {
                    record(call, .failure(.declined("Approval timed out")))
                }
                remaining.removeAll { executionDeadline($0) <= now }
            case .cancelled, .finished(.failure):
                for call in remaining { record(call, .failure(.cancelled("Cancelled while awaiting approval"))) }
                remaining = []
            }
        }
        if configuration.runsApprovedCallsSequentially {
            for call in approved { await execute(call) }
        } else {
            await withDiscardingTaskGroup { group in
                for call in approved { group.addTask { await self.execute(call) } }
            }
        }
        if case .present(let next) = batcher.batchFinished() { present(next) }
    }

    /// When a call must have its result: the server's deadline less a margin for posting it (a tenth of the
    /// timeout at most).
    func executionDeadline(_ call: PendingToolCall) -> Duration {
        call.serverDeadline - min(configuration.resultDeliveryMargin, .seconds(call.timeoutSeconds) / 10)
    }

    /// Validates and runs one call, then records its outcome.
    func execute(_ call: PendingToolCall) async {
        guard let session else { return }
        switch dispatcher.prepare(call, allowedNames: allowedNames) {
        case .failure(let error):
            record(call, .failure(error))
        case .success(let prepared):
            journal.markRunning(CallJournal.Key(sessionID: session.id, callID: call.callID))
            persistJournal()
            output.updateItem(Self.item(call, .running))
            let outcome = await dispatcher.execute(
                prepared.function, arguments: prepared.arguments, call: call, sessionID: session.id,
                deadline: executionDeadline(call))
            record(call, outcome)
        }
    }

    /// Saves the outcome in the journal (first outcome wins), updates the checklist and wakes the deliverer.
    func record(_ call: PendingToolCall, _ outcome: ToolCallOutcome) {
        guard let session else { return }
        let key = CallJournal.Key(sessionID: session.id, callID: call.callID)
        openCalls[call.callID] = nil
        guard journal.recordResult(key, outcome.submissionOutcome) else { return }
        persistJournal()
        lastTurnActivity = clock.elapsed
        let status: ToolCallChecklistItem.Status
        switch outcome {
        case .success: status = .completed
        case .failure(let error) where error.code == .declined || error.code == .cancelled:
            status = .cancelled(reason: error.message)
        case .failure(let error): status = .failed(error.message)
        }
        var item = Self.item(call, status)
        if case .success(let value) = outcome { item.result = value }
        output.updateItem(item)
        output.log("Call \(call.callID) (\(call.functionName)): \(status)")
        deliveryKick?.yield()
    }

    /// Calls admitted but without an outcome when a session's work ends get an error result: those waiting for
    /// their window, approval or a slot, and those whose job was still queued when the job group ended (it is
    /// dropped, never run). Without this their turn would wait for ever, and so would the turn watchdog.
    func abandonUnstartedCalls() {
        _ = batcher.endSession()
        for call in openCalls.values.sorted(by: { $0.receivedAt < $1.receivedAt }) {
            record(call, .failure(.cancelled("The session ended before the call ran")))
        }
        openCalls = [:]
    }

    static func item(_ call: PendingToolCall, _ status: ToolCallChecklistItem.Status) -> ToolCallChecklistItem {
        ToolCallChecklistItem(
            id: call.callID, functionName: call.functionName, humanDescription: call.humanDescription,
            arguments: call.arguments, requiresApproval: call.requiresApproval, status: status)
    }
}
