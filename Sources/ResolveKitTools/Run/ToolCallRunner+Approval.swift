extension ToolCallRunner {
    /// Decides the calls that need approval: a remembered decision approves a call first unless one of the
    /// approver's rules denies it; then the approver and anyone through ``ToolApprovals`` decide until each call's
    /// deadline, the first decision per call winning, and a call nobody decided in time is declined. Declined and
    /// withdrawn calls are finished here; the approved ones are returned, with any arguments a person edited.
    func decide(_ calls: [Admitted], batchID: Int, _ run: BatchRun) async -> [Admitted] {
        let sessionID = run.sessionID
        let deadline = run.deadlines.approval
        approvals.open(
            request(batchID, calls.map(\.call), sessionID, deadline),
            deadlines: Dictionary(uniqueKeysWithValues: calls.map { ($0.call.callID, deadline($0.call)) }),
            clock: clock, registry: dispatcher.registry)
        var remaining = calls
        defer { approvals.close(remaining.map(\.call.callID), in: sessionID) }
        for admitted in calls { run.approvalOpened(admitted.call) }
        for admitted in remaining where !approver.denies(admitted.call) {
            if let remembered = await approvals.rememberedDecision(for: admitted.call, sessionID: sessionID) {
                try? approvals.decide(
                    [(admitted.call.callID, .attributed(.approve, by: .remembered(id: remembered.id)))], in: sessionID)
            }
        }
        // Only what is left to decide is announced: a call a remembered decision approved waits for nobody.
        let toAnnounce = calls.map(\.call).filter { approvals.decision(for: $0.callID, in: sessionID) == nil }
        if !toAnnounce.isEmpty { approvals.announce(request(batchID, toAnnounce, sessionID, deadline)) }
        var approved: [Admitted] = []
        while !remaining.isEmpty {
            let undecided = remaining.map(\.call).filter { approvals.decision(for: $0.callID, in: sessionID) == nil }
            if !undecided.isEmpty, !(await waitForDecisions(undecided, batchID: batchID, run)) {
                for admitted in remaining {
                    run.finish(admitted.call, .failure(.cancelled("Cancelled while awaiting approval")))
                }
                return []
            }
            var decided: [ToolCallID] = []
            for var admitted in remaining {
                let call = admitted.call
                if let stopped = control.stopError(call.callID) {
                    decided.append(call.callID)
                    run.finish(call, .failure(stopped))
                    continue
                }
                guard let decision = approvals.decision(for: call.callID, in: sessionID) else { continue }
                decided.append(call.callID)
                audit.decision(call, sessionID: sessionID, batchID: batchID, decision)
                admitted.decision = decision
                switch decision.verdict {
                case .approve, .attributed:
                    run.decided(call, .approved, decision)
                    approved.append(admitted)
                case .approveEdited(let arguments):
                    run.decided(call, .approved, decision)
                    var edited = call
                    edited.arguments = arguments
                    guard case .success(let prepared) = dispatcher.prepare(edited, allowedNames: [call.functionName])
                    else {
                        run.finish(call, .failure(.invalidArguments("The edited arguments are invalid")))
                        continue
                    }
                    admitted.arguments = prepared.arguments
                    admitted.editedArguments = arguments
                    approved.append(admitted)
                case .decline(let reason):
                    run.decided(call, .declined, decision)
                    run.finish(call, .failure(.declined(reason ?? "User denied action")))
                }
            }
            approvals.close(decided, in: sessionID)
            remaining.removeAll { decided.contains($0.call.callID) }
        }
        return approved
    }

    /// Asks the approver and anyone about `undecided` until the earliest of their deadlines; calls past theirs are
    /// declined as timed out. `false` when the calling task was cancelled.
    private func waitForDecisions(_ undecided: [PendingToolCall], batchID: Int, _ run: BatchRun) async -> Bool {
        let deadline = run.deadlines.approval
        guard let earliest = undecided.map(deadline).min() else { return true }
        let request = request(batchID, undecided, run.sessionID, deadline)
        let (approvals, approver) = (approvals, approver)
        let outcome = await DeadlineRace<Void>(clock: clock).run(until: earliest) {
            await approvals.collect(request, from: approver)
        }
        switch outcome {
        case .timedOut:
            let now = clock.elapsed
            approvals.expire(undecided.filter { deadline($0) <= now }.map(\.callID), in: run.sessionID)
        case .cancelled:
            return false
        case .finished:
            break
        }
        return true
    }

    private func request(
        _ batchID: Int, _ calls: [PendingToolCall], _ sessionID: String,
        _ deadline: @Sendable (PendingToolCall) -> Duration
    ) -> ToolApprovalRequest {
        let now = clock.elapsed
        return ToolApprovalRequest(
            batchID: batchID, calls: calls.map { .init(call: $0, timeRemaining: deadline($0) - now) },
            sessionID: sessionID)
    }
}
