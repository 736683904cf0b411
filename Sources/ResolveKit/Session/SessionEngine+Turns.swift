extension SessionEngine {
    /// Sends a user turn: one `POST /messages` with a client `request_id`, retried with the same id on 409 and
    /// transient failures (§7.6); the turn id comes from the answer or, if that was lost, from the events.
    func sendMessage(_ text: String, requestID: String = UUIDText.make()) async -> ResolveKitSendOutcome {
        if let problem = Self.validate(text) { return .failed(problem) }
        guard session != nil, backend != nil else {
            return .failed(ResolveKitError(.notStarted, "Not connected: start the runtime first"))
        }
        guard turns.beginSending(requestID: requestID) else { return .rejectedTurnInProgress }
        output.update { $0.isTurnInProgress = true }
        output.append(ResolveKitChatMessage(id: "user-" + requestID, role: .user, text: text))
        let outcome = await submit(text, requestID: requestID)
        if case .accepted(let turnID) = outcome {
            if turns.accepted(turnID: turnID, requestID: requestID, now: clock.elapsed) { turnStarted(turnID) }
        } else if turns.requestID == requestID, turns.turnID == nil {
            turns.sendFailed(requestID: requestID)
            output.update { $0.isTurnInProgress = false }
            if case .failed(let error) = outcome { output.system("The message was not sent: \(error.message)") }
            admitNextAsk()
        }
        return outcome
    }

    static func validate(_ text: String) -> ResolveKitError? {
        guard text.isEmpty || text.count > 32_768 || text.utf8.count > 32_768 else { return nil }
        return ResolveKitError(.invalidMessage, "A message must have 1 to 32768 characters (and at most 32768 bytes)")
    }

    private func submit(_ text: String, requestID: String) async -> ResolveKitSendOutcome {
        let body = MessageSubmitRequest(text: text, requestID: requestID, locale: output.read().currentLocale)
        var refreshed = false
        var attempt = 0
        let maxAttempts = 8
        var lastError: BackendError?
        while attempt < maxAttempts {
            attempt += 1
            guard let backend, let session else {
                return .failed(ResolveKitError(.sessionGone, "The session ended before the message was sent"))
            }
            let error: BackendError
            do {
                return .accepted(turnID: try await backend.submitMessage(session, body).turnID)
            } catch let caught {
                error = caught
            }
            lastError = error
            output.log("Sending the message failed (attempt \(attempt)): \(error)", level: .warning)
            // The actor is reentrant: if another session started while this request was out, the answer is about
            // the old one and must not end the new one.
            let isCurrentSession = self.session?.id == session.id
            var delay = Backoff.delay(forAttempt: attempt)
            switch BackendFailurePolicy.action(.sendMessage, error, tokenRefreshed: refreshed) {
            case .refreshToken:
                refreshed = true
                if await refreshToken() { continue }
                guard self.session?.id == session.id else {
                    return .failed(ResolveKitError(
                        .sessionGone, "A new session started while the message was sent; send it again", underlying: error))
                }
                return .failed(ResolveKitError(
                    .chatUnavailable, "The capability token could not be refreshed", isRetryable: true, underlying: error))
            case .waitForTurnLock where turns.sessionMayHoldLostTurnLock:
                // The backend lost a turn of this session but holds its lock (up to 600 s): a new session is the
                // way out. The message goes there.
                guard await replaceSessionHoldingLostTurn(session) else {
                    return .failed(ResolveKitError(.sessionGone, "The session could not be replaced", underlying: error))
                }
                attempt = 0
                continue
            case .waitForTurnLock:
                output.log("A turn is still running on the server; retrying with the same request id")
                delay = .milliseconds(500 * attempt)
            case .replaceSession:
                if isCurrentSession {
                    endSessionWork(.sessionGone("The conversation ended on the server; a new one started. Send your message again."))
                }
                return .failed(ResolveKitError(.sessionGone, "The session has ended (410)", underlying: error))
            case .recreateSession:
                if isCurrentSession { endSessionWork(.sessionMissing) }
                return .failed(ResolveKitError(.sessionGone, "The session no longer exists (404)", underlying: error))
            case .block(let code):
                return .failed(ResolveKitError(code, Self.blockMessage(code, error), underlying: error))
            case .fail, .settle:
                return .failed(ResolveKitError(.backend, "The message was refused: \(error)", underlying: error))
            case .retry:
                break
            }
            if attempt == maxAttempts { break }
            do { try await clock.sleep(untilElapsed: clock.elapsed + delay) } catch {
                return .failed(ResolveKitError(.cancelled, "Cancelled while sending the message"))
            }
        }
        return .failed(ResolveKitError(
            .backend, "Gave up after \(maxAttempts) attempts: \(lastError.map(\.description) ?? "no answer")",
            isRetryable: true, underlying: lastError))
    }

    /// Ends `session`, whose lost turn still holds the server's lock, and waits for the next session to open.
    private func replaceSessionHoldingLostTurn(_ old: SessionAccess) async -> Bool {
        if session?.id == old.id {
            output.log("The session still holds the lock of a lost turn; starting a new session", level: .warning)
            endSessionWork(.sessionGone("The assistant lost track of the last question; a new conversation started."))
        }
        return await waitForSession(other: old.id)
    }

    /// Waits until a session other than `sessionID` is open, within the connect timeout (or 30 s).
    func waitForSession(other sessionID: String? = nil) async -> Bool {
        let deadline = clock.elapsed + (configuration.connectTimeout ?? .seconds(30))
        while session == nil || session?.id == sessionID || channels.work == nil {
            let opened = OneShot<Bool>()
            waiting.sessions.append(opened)
            let timer = Task { [clock] in
                try? await clock.sleep(untilElapsed: deadline)
                opened.fulfill(false)
            }
            let result = await opened.value()
            timer.cancel()
            waiting.sessions.removeAll { $0 === opened }
            guard result == true else { return false }
        }
        return true
    }

    /// Asks and waits for the answer: waits behind running turns (FIFO, bounded), sends, and follows the turn to
    /// its end within `timeout` (the watchdog bounds a turn the backend lost).
    func ask(_ text: String, timeout: Duration?) async -> Result<ResolveKitTurnResult, ResolveKitError> {
        if let problem = Self.validate(text) { return .failure(problem) }
        let started = clock.elapsed
        if session == nil || channels.work == nil, !(await waitForSession()) {
            return .failure(ResolveKitError(.notStarted, "The runtime has no open session; start it first"))
        }
        while turns.isBusy || !waiting.asks.isEmpty {
            guard waiting.asks.count < configuration.turnQueueLimit else {
                return .failure(ResolveKitError(
                    .turnQueueFull, "\(waiting.asks.count) questions already wait for this session"))
            }
            let ticket = OneShot<Bool>()
            waiting.asks.append(ticket)
            switch await ticket.value() {
            case nil:
                waiting.asks.removeAll { $0 === ticket }
                admitNextAsk()
                return .failure(ResolveKitError(.cancelled, "Cancelled while waiting for the previous turn"))
            case false?:
                return .failure(ResolveKitError(.cancelled, "The runtime stopped while the question waited its turn"))
            case true?:
                break
            }
            if !turns.isBusy { break }
        }
        let requestID = UUIDText.make()
        let waiter = OneShot<Result<ResolveKitTurnResult, ResolveKitError>>()
        waiting.turns[requestID] = waiter
        switch await sendMessage(text, requestID: requestID) {
        case .accepted: break
        case .rejectedTurnInProgress:
            waiting.turns[requestID] = nil
            return .failure(ResolveKitError(.turnQueueFull, "Another turn started first", isRetryable: true))
        case .failed(let error):
            waiting.turns[requestID] = nil
            return .failure(error)
        }
        guard let timeout else {
            return await waiter.value() ?? .failure(ResolveKitError(.cancelled, "Cancelled while waiting for the answer"))
        }
        let deadline = started + timeout
        let timer = Task { [clock] in
            do {
                try await clock.sleep(untilElapsed: deadline)
                waiter.fulfill(.failure(ResolveKitError(.turnTimedOut, "No answer within \(timeout)")))
            } catch {}
        }
        defer { timer.cancel() }
        let result = await waiter.value() ?? .failure(ResolveKitError(.cancelled, "Cancelled while waiting for the answer"))
        waiting.turns[requestID] = nil
        return result.mapError { error in
            var error = error
            if error.turnSoFar == nil, let record = turnRecord, record.requestID == requestID {
                error.turnSoFar = record.result(.unfinished)
            }
            return error
        }
    }

    /// Lets the first queued `ask` try to send, when no turn runs.
    func admitNextAsk() {
        guard !turns.isBusy, !waiting.asks.isEmpty else { return }
        waiting.asks.removeFirst().fulfill(true)
    }

    /// Starts the turn watchdog unless it is queued or running: when a turn starts, and when a session starts
    /// while one runs.
    func startTurnWatchdog() {
        guard !channels.isWatchingTurn, turns.turnID != nil, let work = channels.work else { return }
        channels.isWatchingTurn = true
        work.yield(.run { [self] in await runTurnWatchdog() })
    }

    /// Watches the running turn: one silent for a period is reconciled from the history, and one still silent a
    /// period later is lost (§7.2, §10.8). Ends with the turn.
    func runTurnWatchdog() async {
        defer { channels.isWatchingTurn = false }
        while !Task.isCancelled, turns.turnID != nil {
            switch turns.watchdog(now: clock.elapsed, hasOutstandingCalls: hasOutstandingCalls) {
            case .sleep(let until):
                do { try await clock.sleep(untilElapsed: until) } catch { return }
            case .reconcile(let firstCheck):
                await reconcileTurn(firstCheck: firstCheck)
            }
        }
    }

    /// Whether a call of this session still has no outcome and the server still waits for it. A call past its
    /// server deadline no longer holds the watchdog back, whatever happened to it.
    var hasOutstandingCalls: Bool {
        pipeline.hasOutstandingCalls(now: clock.elapsed)
    }

    /// Asks the history whether the turn ended unseen. Either way the stream missed events, so it is reopened
    /// without its cursor (a restarted in-memory backend renumbers events and hides them behind an old cursor,
    /// §10.10; without the reset every later event, tool calls included, would stay hidden too); while the turn
    /// is still running only on the first check. The call journal and ``HandledEvents`` keep the replay from
    /// repeating anything. A turn still unanswered at a later check is lost.
    private func reconcileTurn(firstCheck: Bool) async {
        guard let backend, let session, let turnID = turns.turnID else { return }
        let history: [SessionMessage]
        do {
            history = try await backend.messages(session)
        } catch {
            output.log("The turn watchdog could not read the history: \(error)", level: .warning)
            return
        }
        guard turns.turnID == turnID else { return }
        if let last = history.last, last.role != "user" {
            if !output.read().messages.contains(where: { $0.id == last.id }), let text = last.content, !text.isEmpty {
                output.append(ResolveKitChatMessage(id: last.id, role: .assistant, text: text))
                turnRecord?.text = text
            }
            output.log("The turn ended without a terminal event; reconciled from the history")
            // The replay that follows brings the turn's `turn_complete`: its answer is already in the transcript.
            _ = progress.handledEvents.insert(HandledEvents.turnCompleted(turnID))
            finishTurn(.success(.answered))
            channels.streamReset?.yield()
        } else if firstCheck {
            channels.streamReset?.yield()
        } else {
            output.system("The assistant did not answer.")
            output.log("Turn \(turnID) is lost: no event and no answer for two watchdog periods", level: .warning)
            finishTurn(.failure(ResolveKitError(
                .turnLost, "The backend lost the turn: no event and no answer within \(configuration.turnWatchdog * 2)")),
                lost: true)
        }
    }
}
