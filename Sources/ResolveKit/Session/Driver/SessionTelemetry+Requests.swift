import ResolveKitHTTP
import ResolveKitTelemetry
import Synchronization

/// Each backend request's place in a trace, and what its answer means for the turn and result metrics.
extension SessionTelemetry {
    /// The trace of a request about to be sent: a message under its turn, a result under its call, the turn
    /// watchdog's look at the history and a token refresh for a message under their turn, anything else a trace of
    /// its own. A result sent again is counted as a retry, with why the last try failed.
    func sending(_ call: BackendCall, access: SessionAccess?, tag: RequestTag) -> RequestTrace {
        guard isOn || hasOpenTraces else { return RequestTrace() }
        switch call {
        case .message(_, let requestID):
            return state.withLock { state -> RequestTrace in
                guard var trace = state.turns[requestID] else { return RequestTrace() }
                let resends = trace.posted ? 1 : 0
                if !trace.posted, let access {
                    trace.span?.setAttribute(SemanticAttributes.genAIConversationID, .string(access.id))
                }
                trace.posted = true
                state.turns[requestID] = trace
                state.current = requestID
                return RequestTrace(parent: trace.context, resendCount: resends)
            }
        case .toolResult(let submission):
            return resultSending(submission)
        case .history:
            guard case .watchdog(let turnID, _, _) = tag else { return RequestTrace() }
            return RequestTrace(parent: turnContext(requestID: nil, turnID: turnID))
        case .createSession:
            guard case .refresh(.message(let requestID), _) = tag else { return RequestTrace() }
            return RequestTrace(parent: turnContext(requestID: requestID, turnID: nil))
        case .register, .context, .localization, .feedback:
            return RequestTrace()
        }
    }

    private func resultSending(_ submission: ToolResultSubmission) -> RequestTrace {
        let now = clock.elapsed
        let (trace, retried) = state.withLock { state -> (RequestTrace, ResolveKitMetrics.RetryReason?) in
            let call = state.calls[submission.callID, default: CallTrace()].sending(at: now)
            let retried = call.attempts > 1 ? call.lastFailure ?? .transportError : nil
            let parent =
                call.context
                ?? (state.turns.isEmpty
                    ? nil : state.turns.values.first { $0.turnID == submission.turnID }?.context)
            return (RequestTrace(parent: parent, resendCount: call.attempts - 1), retried)
        }
        if let retried { metrics?.resultDeliveryRetried(reason: retried) }
        return trace
    }

    /// A request was answered: a message's turn id is known; a result was delivered, is no longer awaited, or will
    /// be sent again. Told before the machine has the answer, so what a host reads once it sees the outcome counts
    /// it.
    func answered(_ call: BackendCall, _ result: Result<BackendAnswer, BackendFailure>) {
        guard isOn || hasOpenTraces else { return }
        switch (call, result) {
        case (.message(_, let requestID), .success(.accepted(let turnID))):
            state.withLock { state in
                state.turns[requestID]?.turnID = turnID
                state.otherTurns[turnID] = nil
            }
        case (.toolResult(let submission), .success):
            let now = clock.elapsed
            let delivered = state.withLock { $0.calls.removeValue(forKey: submission.callID) }
            if let finishedAt = delivered?.finishedAt { metrics?.resultDelivered(latency: now - finishedAt) }
        case (.toolResult(let submission), .failure(let failure)):
            let status = failure.backendError?.status
            if let status, [404, 410, 422].contains(status) {
                let abandoned = state.withLock { $0.calls.removeValue(forKey: submission.callID) }
                if abandoned?.finishedAt != nil { metrics?.resultAbandoned() }
            } else {
                let reason = Self.retryReason(failure.backendError)
                state.withLock { $0.calls[submission.callID]?.lastFailure = reason }
            }
        default:
            break
        }
    }

    /// Why a result post will be sent again, from how it failed.
    static func retryReason(_ error: BackendError?) -> ResolveKitMetrics.RetryReason {
        guard let error, let status = error.status else {
            return error?.underlying?.code == .timedOut ? .timeout : .transportError
        }
        switch status {
        case 429: return .throttled
        case 409: return .conflict
        case 408: return .timeout
        case 403: return .tokenRefresh
        default: return .serverError
        }
    }
}
