import Synchronization

/// How a session's batch passes through the shared set: opened, decided by the approver or by anyone, closed.
/// Every call is named by its session and id.
extension ToolApprovals {
    /// Registers a batch's calls as waiting; ``announce(_:)`` tells the world about those left to decide.
    package func open(
        _ request: ToolApprovalRequest, deadlines: [ToolCallID: Duration], clock: ResolveKitClock,
        registry: ResolveKitRegistry
    ) {
        state.withLock { state in
            for call in request.calls {
                let key = Key(sessionID: request.sessionID, callID: call.id)
                guard state.entries[key] == nil else { continue }
                state.entries[key] = Entry(
                    call: call.call, batchID: request.batchID, sessionID: request.sessionID,
                    deadline: deadlines[call.id] ?? call.call.serverDeadline, clock: clock,
                    schema: registry.entry(named: call.call.functionName)?.schema)
            }
        }
    }

    /// Announces calls waiting for someone's decision (``Update/requested(_:)``).
    package func announce(_ request: ToolApprovalRequest) {
        broadcaster.send(.requested(request))
    }

    /// Asks `approver` about `request` and waits until every call of it is decided, by the approver or by anyone
    /// through ``approve(callIDs:in:by:)``. When the wait is cancelled (a deadline), the approver is cancelled too,
    /// without waiting for an approver that ignores cancellation.
    package func collect(_ request: ToolApprovalRequest, from approver: any ToolApprover) async {
        let asking = Task {
            let answer = await approver.decide(request)
            guard !Task.isCancelled else { return }
            self.apply(answer, to: request, defaultDecider: .host(String(describing: type(of: approver))))
        }
        await waitUntilDecided(Set(request.calls.map { Key(sessionID: request.sessionID, callID: $0.id) }))
        asking.cancel()
    }

    /// Records an approver's answer for the calls still undecided; a call decided meanwhile keeps its decision.
    func apply(_ answer: ToolBatchDecision, to request: ToolApprovalRequest, defaultDecider: ToolCallDecision.Decider) {
        var decided: [(ToolCallID, ToolCallDecision)] = []
        let woken = state.withLock { state in
            for call in request.calls {
                let key = Key(sessionID: request.sessionID, callID: call.id)
                guard let entry = state.entries[key], entry.decision == nil else { continue }
                var decision = answer.decision(for: call.id)
                if decision.decider == nil { decision = .attributed(decision, by: defaultDecider) }
                state.entries[key]?.decision = decision
                decided.append((call.id, decision))
            }
            return Self.takeSatisfiedWaiters(&state)
        }
        for (callID, decision) in decided {
            broadcaster.send(.decided(sessionID: request.sessionID, callID: callID, decision))
        }
        for continuation in woken { continuation.resume() }
    }

    /// Declines calls whose deadline came first, as decided by ``ToolCallDecision/Decider/timeout``.
    package func expire(_ callIDs: [ToolCallID], in sessionID: String) {
        try? decide(
            callIDs.filter { decision(for: $0, in: sessionID) == nil }.map {
                ($0, .attributed(.decline(reason: "Approval timed out"), by: .timeout))
            },
            in: sessionID)
    }

    /// The decision for a call, once made.
    package func decision(for callID: ToolCallID, in sessionID: String) -> ToolCallDecision? {
        state.withLock { $0.entries[Key(sessionID: sessionID, callID: callID)]?.decision }
    }

    /// Forgets calls: their batch is done. Calls that were never decided are announced as withdrawn.
    package func close(_ callIDs: [ToolCallID], in sessionID: String) {
        let (withdrawn, woken) = state.withLock { state in
            let withdrawn = callIDs.filter { callID in
                state.entries.removeValue(forKey: Key(sessionID: sessionID, callID: callID)).map { $0.decision == nil }
                    ?? false
            }
            return (withdrawn, Self.takeSatisfiedWaiters(&state))
        }
        for callID in withdrawn { broadcaster.send(.withdrawn(sessionID: sessionID, callID: callID)) }
        for continuation in woken { continuation.resume() }
    }

    /// Returns once every call in `keys` is decided or closed, or the task is cancelled.
    private func waitUntilDecided(_ keys: Set<Key>) async {
        let id = state.withLock { state in
            state.nextWaiterID += 1
            return state.nextWaiterID
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let resumeNow = state.withLock { state -> Bool in
                    if Task.isCancelled { return true }
                    if keys.allSatisfy({ state.entries[$0].map { $0.decision != nil } ?? true }) { return true }
                    state.waiters[id] = Waiter(keys: keys, continuation: continuation)
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: id) }?.continuation.resume()
        }
    }
}
