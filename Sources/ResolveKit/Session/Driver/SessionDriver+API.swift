import Synchronization

/// What ``ResolveKitRuntime`` asks of its session: each is an event for the machine and, where the caller waits,
/// the machine's reply.
extension SessionDriver {
    func ask(_ text: String, timeout: Duration?, parent: SpanContext?) async
        -> Result<ResolveKitTurnResult, ResolveKitError>
    {
        let requestID = UUIDText.make()
        let reply = await reply { waiter in
            parts.telemetry.asked(requestID: requestID, waiter: waiter, parent: parent)
            return .ask(waiter, text: text, requestID: requestID, timeout: timeout)
        }
        guard case .turn(let result) = reply else { return .failure(Self.unexpected(reply)) }
        return result
    }

    func sendMessage(_ text: String, parent: SpanContext?) async -> ResolveKitSendOutcome {
        let requestID = UUIDText.make()
        let reply = await reply { waiter in
            parts.telemetry.asked(requestID: requestID, waiter: waiter, parent: parent)
            return .send(waiter, text: text, requestID: requestID)
        }
        guard case .sent(let outcome) = reply else {
            if case .turn(.failure(let error)) = reply { return .failed(error) }
            return .failed(Self.unexpected(reply))
        }
        return outcome
    }

    func perform(_ operation: SessionOperation) async throws(ResolveKitError) {
        let reply = await reply { .operation($0, operation) }
        switch reply {
        case .done(.success): return
        case .done(.failure(let error)), .turn(.failure(let error)): throw error
        default: throw Self.unexpected(reply)
        }
    }

    func resend(requestID: String) async -> ResolveKitSendOutcome {
        let reply = await reply { .resend($0, requestID: requestID) }
        guard case .sent(let outcome) = reply else { return .failed(Self.unexpected(reply)) }
        return outcome
    }

    /// The conversation as the backend keeps it, and the session it belongs to.
    func history() async throws(ResolveKitError) -> (sessionID: String, messages: [SessionMessage]) {
        let sessionID = core.withLock { $0.machine.access?.id }
        let reply = await reply { .operation($0, .history) }
        switch reply {
        case .history(.success(let messages)): return (sessionID ?? "", messages)
        case .history(.failure(let error)), .done(.failure(let error)): throw error
        default: throw Self.unexpected(reply)
        }
    }

    func submitFeedback(rating: Int, comment: String?) async throws(ResolveKitError) -> ResolveKitFeedbackOutcome {
        let reply = await reply { .operation($0, .feedback(rating: rating, comment: comment)) }
        switch reply {
        case .feedback(.success(let outcome)): return outcome
        case .feedback(.failure(let error)), .done(.failure(let error)): throw error
        default: throw Self.unexpected(reply)
        }
    }

    func requestNewSession() {
        send(.newSession)
    }

    /// Refuses new calls, lets running ones finish and their results be posted; returns once idle or after
    /// `timeout`, whichever comes first.
    func drain(timeout: Duration) async {
        let clock = parts.clock
        let deadline = clock.elapsed + timeout
        await withTaskGroup(of: Void.self) { group in
            group.addTask { _ = await self.reply { .drain($0) } }
            group.addTask { try? await clock.sleep(untilElapsed: deadline) }
            await group.next()
            group.cancelAll()
        }
    }

    private static func unexpected(_ reply: Reply) -> ResolveKitError {
        switch reply {
        case .turn(.failure(let error)), .done(.failure(let error)): error
        case .sent(.failed(let error)), .history(.failure(let error)), .feedback(.failure(let error)): error
        default: ResolveKitError(.cancelled, "The runtime stopped")
        }
    }
}
