/// User turns: `ask` and `sendMessage` (one `POST /messages` with a client `request_id`, retried with the same id,
/// §7.6), the queue of `ask`s behind a running turn, and the caller's public operations.
extension SessionMachine {
    /// The most attempts at sending one message that fail in a way retrying may fix.
    static let maxSendAttempts = 8

    static func validate(_ text: String) -> ResolveKitError? {
        guard text.isEmpty || text.count > 32_768 || text.utf8.count > 32_768 else { return nil }
        return ResolveKitError(.invalidMessage, "A message must have 1 to 32768 characters (and at most 32768 bytes)")
    }

    /// `ask`: waits for a session (bounded) and behind running turns (FIFO, bounded), sends, and answers with the
    /// turn's result within `timeout`.
    mutating func ask(
        _ waiter: WaiterID, text: String, requestID: String, timeout: Duration?, _ now: Moment,
        _ out: inout SessionOutput
    ) {
        if let problem = Self.validate(text) { return out.append(.reply(waiter, .turn(.failure(problem)))) }
        guard drainWaiter == nil else { return out.append(.reply(waiter, .turn(.failure(Self.notSentWhileDraining)))) }
        guard !link.hasEnded else {
            let error = ResolveKitError(.notStarted, "The runtime has no open session; start it first")
            return out.append(.reply(waiter, .turn(.failure(error))))
        }
        if let timeout {
            turns.timeouts[waiter] = timeout
            arm(.askTimeout(waiter), at: now.elapsed + timeout, &out)
        }
        let message = TurnDesk.Outgoing(waiter: waiter, kind: .ask, text: text, requestID: requestID)
        guard link.isOpen else {
            turns.awaitingSession.append(message)
            arm(.sessionWait(waiter), at: now.elapsed + settings.sessionWait, &out)
            return
        }
        enqueue(message, now, &out)
    }

    /// Sends `message` now, or queues it behind the running turn.
    private mutating func enqueue(_ message: TurnDesk.Outgoing, _ now: Moment, _ out: inout SessionOutput) {
        if turns.tracker.isBusy || turns.outgoing != nil || !turns.queue.isEmpty {
            guard turns.queue.count < settings.turnQueueLimit else {
                disarm(.askTimeout(message.waiter), &out)
                let error = ResolveKitError(.turnQueueFull, "\(turns.queue.count) questions already wait for this session")
                return out.append(.reply(message.waiter, .turn(.failure(error))))
            }
            turns.queue.append(message)
            return
        }
        beginSending(message, now, &out)
    }

    /// `sendMessage`: refused at once while a turn runs; otherwise answered once the backend accepted it or sending
    /// failed after retries.
    mutating func sendMessage(
        _ waiter: WaiterID, text: String, requestID: String, _ now: Moment, _ out: inout SessionOutput
    ) {
        if let problem = Self.validate(text) { return out.append(.reply(waiter, .sent(.failed(problem)))) }
        guard drainWaiter == nil else { return out.append(.reply(waiter, .sent(.failed(Self.notSentWhileDraining)))) }
        guard session != nil, link.isOpen else {
            let error = ResolveKitError(.notStarted, "Not connected: start the runtime first")
            return out.append(.reply(waiter, .sent(.failed(error))))
        }
        guard !turns.tracker.isBusy, turns.outgoing == nil else {
            return out.append(.reply(waiter, .sent(.rejectedTurnInProgress)))
        }
        beginSending(TurnDesk.Outgoing(waiter: waiter, kind: .send, text: text, requestID: requestID), now, &out)
    }

    private mutating func beginSending(_ message: TurnDesk.Outgoing, _ now: Moment, _ out: inout SessionOutput) {
        guard turns.tracker.beginSending(requestID: message.requestID) else {
            turns.queue.insert(message, at: 0)
            return
        }
        turns.outgoing = message
        if message.kind == .ask { turns.askWaiters[message.requestID] = message.waiter }
        out.publish(.turnInProgress(true))
        if message.isResend {
            out.publish(.delivery(messageID: "user-" + message.requestID, .pending))
        } else {
            out.publish(.message(.init(id: "user-" + message.requestID, role: .user, text: message.text, delivery: .pending)))
        }
        post(message, &out)
    }

    private mutating func post(_ message: TurnDesk.Outgoing, _ out: inout SessionOutput) {
        guard let session else { return }
        out.append(.send(
            .message(text: message.text, requestID: message.requestID), access: session.access,
            tag: .message(requestID: message.requestID, epoch: link.epoch)))
    }

    /// The message out is sent again (after a backoff, a refreshed token, or in a new session).
    mutating func resendMessage(_ now: Moment, _ out: inout SessionOutput) {
        guard let message = turns.outgoing, link.isOpen else { return }
        post(message, &out)
    }

    /// `POST /messages` answered. An answer about an earlier session still tells the message's fate when it was
    /// accepted; a failure there is retried in the session now open.
    mutating func messageAnswered(
        _ requestID: String, _ result: Result<BackendAnswer, BackendFailure>, sameSession: Bool, _ now: Moment,
        _ out: inout SessionOutput
    ) {
        guard var message = turns.outgoing, message.requestID == requestID else { return }
        switch result {
        case .success(.accepted(let turnID)):
            messageDelivered(turnID: turnID, now, &out)
            if turns.tracker.accepted(turnID: turnID, requestID: requestID, now: now.elapsed) {
                turnStarted(turnID, now, &out)
            }
            return
        case .success(let answer):
            let error = BackendError(code: .invalidResponse, endpoint: "POST /messages", message: "\(answer)")
            return failMessage(ResolveKitError(.backend, "The message was refused: \(error)", underlying: error), now, &out)
        case .failure(.unsupported):
            return failMessage(ResolveKitError(.backend, "The message was refused"), now, &out)
        case .failure(.backend(let error, _)):
            guard sameSession else { return resendMessage(now, &out) }
            out.log("Sending the message failed (attempt \(message.attempts + 1)): \(error)", .warning)
            messageFailed(&message, error, now, &out)
        }
    }

    /// What a failed `POST /messages` means, from ``BackendFailurePolicy`` and, for a held turn lock, the
    /// ``TurnLockWatch``.
    private mutating func messageFailed(
        _ message: inout TurnDesk.Outgoing, _ error: BackendError, _ now: Moment, _ out: inout SessionOutput
    ) {
        message.attempts += 1
        switch BackendFailurePolicy.action(.sendMessage, error, tokenRefreshed: message.refreshed) {
        case .refreshToken:
            message.refreshed = true
            turns.outgoing = message
            refreshToken(for: .message(requestID: message.requestID), &out)
        case .waitForTurnLock:
            message.attempts -= 1
            turns.outgoing = message
            let verdict = turns.lock.conflict(
                now: now.elapsed, attempt: message.attempts + 1,
                holdsLostLock: turns.tracker.sessionMayHoldLostTurnLock)
            switch verdict {
            case .replaceSession:
                // The lock belongs to a turn nobody follows (up to 600 s): a new session is the way out, and the
                // message goes there.
                turns.outgoing?.movedToNewSession = true
                out.log("The session holds the lock of a turn nobody follows; starting a new session", .warning)
                let notice = "The assistant lost track of the last question; a new conversation started."
                endSession(.sessionGone(notice), now, &out)
            case .retry(let delay):
                out.log("A turn is still running on the server; retrying with the same request id")
                arm(.sendRetry, at: now.elapsed + delay, &out)
            }
        case .replaceSession where !message.movedToNewSession:
            // Expired, closed or handed off to a person: the question goes to a new session, as after a lost turn.
            message.movedToNewSession = true
            turns.outgoing = message
            out.log("The session has ended on the server (410); the message goes to a new session", .warning)
            endSession(.sessionGone("The conversation ended on the server; a new one started."), now, &out)
        case .replaceSession:
            failMessage(ResolveKitError(.sessionGone, "The session has ended (410)", underlying: error), now, &out)
            endSession(.sessionGone("The conversation ended on the server; a new one started. Send your message again."), now, &out)
        case .recreateSession:
            failMessage(ResolveKitError(.sessionGone, "The session no longer exists (404)", underlying: error), now, &out)
            endSession(.sessionMissing, now, &out)
        case .block(let code):
            failMessage(ResolveKitError(code, Self.blockMessage(code, error), underlying: error), now, &out)
        case .fail, .settle:
            failMessage(ResolveKitError(.backend, "The message was refused: \(error)", underlying: error), now, &out)
        case .retry:
            guard message.attempts < Self.maxSendAttempts else {
                let gaveUp = ResolveKitError(
                    .backend, "Gave up after \(Self.maxSendAttempts) attempts: \(error)", isRetryable: true,
                    underlying: error)
                return failMessage(gaveUp, now, &out)
            }
            turns.outgoing = message
            arm(.sendRetry, at: now.elapsed + Backoff.delay(forAttempt: message.attempts, random: jitter()), &out)
        }
    }

    /// The message out reached the backend (its answer, or its turn's first event, says so).
    mutating func messageDelivered(turnID: String, _ now: Moment, _ out: inout SessionOutput) {
        guard let message = turns.outgoing else { return }
        turns.outgoing = nil
        disarm(.sendRetry, &out)
        out.publish(.delivery(messageID: "user-" + message.requestID, .sent))
        if message.kind == .send { out.append(.reply(message.waiter, .sent(.accepted(turnID: turnID)))) }
    }

    /// The message out could not be sent: its caller learns why, it is kept for `resend`, and the session is free
    /// for the next.
    mutating func failMessage(_ error: ResolveKitError, _ now: Moment, _ out: inout SessionOutput) {
        guard let message = turns.outgoing else { return }
        turns.outgoing = nil
        disarm(.sendRetry, &out)
        turns.tracker.sendFailed(requestID: message.requestID)
        out.publish(.turnInProgress(turns.tracker.isBusy))
        out.publish(.delivery(messageID: "user-" + message.requestID, .failed(error)))
        turns.unsent.removeAll { $0.requestID == message.requestID }
        turns.unsent.append((message.requestID, message.text))
        if turns.unsent.count > 16 { turns.unsent.removeFirst() }
        out.publish(.notice("The message was not sent: \(error.message)"))
        switch message.kind {
        case .send: out.append(.reply(message.waiter, .sent(.failed(error))))
        case .ask:
            turns.askWaiters[message.requestID] = nil
            turns.timeouts[message.waiter] = nil
            disarm(.askTimeout(message.waiter), &out)
            out.append(.reply(message.waiter, .turn(.failure(error))))
        }
        admitNextAsk(now, &out)
    }

    /// `resend(messageID:)`: a message that could not be sent goes again with its request id, so a backend that did
    /// take it the first time (its answer was lost) answers with that turn rather than starting another.
    mutating func resend(_ waiter: WaiterID, requestID: String, _ now: Moment, _ out: inout SessionOutput) {
        guard let unsent = turns.unsent.first(where: { $0.requestID == requestID }) else {
            let error = ResolveKitError(.invalidMessage, "No message that failed has the id user-\(requestID)")
            return out.append(.reply(waiter, .sent(.failed(error))))
        }
        guard session != nil, link.isOpen else {
            let error = ResolveKitError(.notStarted, "Not connected: start the runtime first")
            return out.append(.reply(waiter, .sent(.failed(error))))
        }
        guard !turns.tracker.isBusy, turns.outgoing == nil else {
            return out.append(.reply(waiter, .sent(.rejectedTurnInProgress)))
        }
        turns.unsent.removeAll { $0.requestID == requestID }
        var message = TurnDesk.Outgoing(waiter: waiter, kind: .send, text: unsent.text, requestID: requestID)
        message.isResend = true
        beginSending(message, now, &out)
    }

    /// Lets the first queued `ask` send, when no turn runs.
    mutating func admitNextAsk(_ now: Moment, _ out: inout SessionOutput) {
        guard link.isOpen, !turns.tracker.isBusy, turns.outgoing == nil, !turns.queue.isEmpty else { return }
        beginSending(turns.queue.removeFirst(), now, &out)
    }

    /// A session opened: a message held for it is sent, and the `ask`s that waited for a session join the queue.
    mutating func sessionOpenedForMessages(_ now: Moment, _ out: inout SessionOutput) {
        if let message = turns.outgoing {
            if turns.tracker.sendingRequestID == message.requestID {
                post(message, &out)
            } else if turns.tracker.beginSending(requestID: message.requestID) {
                out.publish(.turnInProgress(true))
                post(message, &out)
            }
        }
        let waiting = turns.awaitingSession
        turns.awaitingSession = []
        for message in waiting {
            disarm(.sessionWait(message.waiter), &out)
            enqueue(message, now, &out)
        }
        admitNextAsk(now, &out)
    }

    mutating func askTimedOut(_ waiter: WaiterID, _ out: inout SessionOutput) {
        guard turns.isWaiting(waiter) else { return }
        let allowed = turns.timeouts[waiter].map { "\($0)" } ?? "the time the caller allowed"
        let (wasQueued, requestID) = turns.forget(waiter)
        // A message still queued was never sent: saying so tells the caller the backend never saw it.
        let unsent = wasQueued ? "; the message was not sent, as the session's turn before it had not ended" : ""
        var error = ResolveKitError(.turnTimedOut, "No answer within \(allowed)\(unsent)")
        error.turnSoFar = turns.turnSoFar(of: requestID)
        disarm(.sessionWait(waiter), &out)
        out.append(.reply(waiter, .turn(.failure(error))))
    }

    mutating func sessionWaitElapsed(_ waiter: WaiterID, _ out: inout SessionOutput) {
        guard turns.awaitingSession.contains(where: { $0.waiter == waiter }) else { return }
        _ = turns.forget(waiter)
        disarm(.askTimeout(waiter), &out)
        let error = ResolveKitError(.notStarted, "The runtime has no open session; start it first")
        out.append(.reply(waiter, .turn(.failure(error))))
    }

    /// The task waiting as `waiter` was cancelled: it stops waiting (a turn it started goes on).
    mutating func cancelled(_ waiter: WaiterID, _ now: Moment, _ out: inout SessionOutput) {
        disarm(.askTimeout(waiter), &out)
        disarm(.sessionWait(waiter), &out)
        if drainWaiter == waiter {
            drainWaiter = nil
            return out.append(.reply(waiter, .done(.failure(ResolveKitError(.cancelled, "Cancelled while draining")))))
        }
        guard turns.isWaiting(waiter) else { return }
        let (wasQueued, requestID) = turns.forget(waiter)
        var error = ResolveKitError(
            .cancelled, wasQueued ? "Cancelled while waiting for the previous turn" : "Cancelled while waiting for the answer")
        error.turnSoFar = turns.turnSoFar(of: requestID)
        out.append(.reply(waiter, .turn(.failure(error))))
        if wasQueued { admitNextAsk(now, &out) }
    }

    /// A question asked while the session drains, or still waiting to be sent when the drain began.
    static let notSentWhileDraining = ResolveKitError(
        .cancelled, "The service is shutting down; the question was not sent", isRetryable: true)

    /// The drain began: questions not sent yet are answered with ``notSentWhileDraining`` (a turn started now would
    /// find its calls refused); the turn under way goes on, and the drain waits for its answer.
    mutating func refuseUnsentQuestions(_ out: inout SessionOutput) {
        for message in turns.queue + turns.awaitingSession {
            disarm(.askTimeout(message.waiter), &out)
            disarm(.sessionWait(message.waiter), &out)
            switch message.kind {
            case .ask: out.append(.reply(message.waiter, .turn(.failure(Self.notSentWhileDraining))))
            case .send: out.append(.reply(message.waiter, .sent(.failed(Self.notSentWhileDraining))))
            }
        }
        turns.queue = []
        turns.awaitingSession = []
    }

    /// Every waiting caller learns the run ended with `error`.
    mutating func endWaiters(_ error: ResolveKitError, _ out: inout SessionOutput) {
        for (requestID, waiter) in turns.askWaiters {
            var error = error
            error.turnSoFar = turns.turnSoFar(of: requestID)
            out.append(.reply(waiter, .turn(.failure(error))))
        }
        turns.askWaiters = [:]
        if let message = turns.outgoing, message.kind == .send { out.append(.reply(message.waiter, .sent(.failed(error)))) }
        turns.outgoing = nil
        // A queued question ends for the run's own cause (a stream that gave up is not a shutdown), unsent.
        var queued = error
        queued.turnSoFar = nil
        queued.message += "; the question was still waiting its turn and was not sent"
        for message in turns.queue { out.append(.reply(message.waiter, .turn(.failure(queued)))) }
        turns.queue = []
        let unopened = ResolveKitError(.notStarted, "The runtime has no open session; start it first")
        for message in turns.awaitingSession { out.append(.reply(message.waiter, .turn(.failure(unopened)))) }
        turns.awaitingSession = []
        if let drainWaiter {
            self.drainWaiter = nil
            out.append(.reply(drainWaiter, .done(.success(()))))
        }
    }

    // MARK: Operations

    /// `refreshSessionContext()` and `setLocale(_:)`: one request on the open session.
    mutating func perform(_ operation: SessionOperation, for waiter: WaiterID, _ out: inout SessionOutput) {
        guard let session, link.isOpen else {
            let error = ResolveKitError(.notStarted, "Not connected: start the runtime first")
            return out.append(.reply(waiter, .done(.failure(error))))
        }
        let call: BackendCall
        switch operation {
        case .refreshContext: call = .context
        case .setLocale(let locale): call = .localization(locale: locale)
        case .history: call = .history
        case .feedback(let rating, let comment):
            guard (1...5).contains(rating), (comment?.count ?? 0) <= 2000 else {
                let error = ResolveKitError(.invalidMessage, "Feedback needs a rating of 1 to 5 and at most 2000 characters of comment")
                return out.append(.reply(waiter, .feedback(.failure(error))))
            }
            call = .feedback(rating: rating, comment: comment)
        }
        out.append(.send(call, access: session.access, tag: .operation(waiter, epoch: link.epoch)))
    }

    mutating func operationAnswered(
        _ waiter: WaiterID, _ result: Result<BackendAnswer, BackendFailure>, _ out: inout SessionOutput
    ) {
        switch result {
        case .success(.contextRefreshed(let names)):
            let allowed = Set(names).intersection(settings.functions.keys)
            session?.allowedNames = allowed
            out.log("Refreshed the session context")
            out.append(.reply(waiter, .done(.success(()))))
        case .success(.localization(let localization)):
            out.publish(.localization(localization))
            out.append(.reply(waiter, .done(.success(()))))
        case .success(.history(let messages)):
            out.append(.reply(waiter, .history(.success(messages))))
        case .success(.feedback(let alreadyGiven)):
            out.append(.reply(waiter, .feedback(.success(alreadyGiven ? .alreadyGiven : .recorded))))
        case .success, .failure:
            let cause = result.failureValue?.backendError
            let error = ResolveKitError(.backend, "The request failed: \(Self.describe(result))", underlying: cause)
            out.append(.reply(waiter, .done(.failure(error))))
        }
    }
}
