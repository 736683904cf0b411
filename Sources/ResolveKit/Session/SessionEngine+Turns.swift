extension SessionEngine {
    /// Sends a user turn: one `POST /messages` with a client `request_id`, retried with the same id on 409 and
    /// transient failures (§7.6); the turn id comes from the answer or, if that was lost, from the events.
    func sendMessage(_ text: String) async -> ResolveKitSendOutcome {
        guard !text.isEmpty, text.count <= 32_768, text.utf8.count <= 32_768 else {
            return .rejectedInvalidText("A message must have 1 to 32768 characters (and at most 32768 bytes)")
        }
        guard activeTurnID == nil, pendingRequestID == nil else { return .rejectedTurnInProgress }
        guard session != nil, backend != nil else { return .failed(reason: "Not connected: start the runtime first") }
        let requestID = UUIDText.make()
        pendingRequestID = requestID
        output.update { $0.isTurnInProgress = true }
        output.append(ResolveKitChatMessage(id: "user-" + requestID, role: .user, text: text))
        let outcome = await submit(text, requestID: requestID)
        if case .accepted(let turnID) = outcome {
            if activeTurnID == nil, pendingRequestID == requestID { startTurn(turnID) }
        } else if pendingRequestID == requestID {
            pendingRequestID = nil
            output.update { $0.isTurnInProgress = false }
            if case .failed(let reason) = outcome { output.system("The message was not sent: \(reason)") }
        }
        return outcome
    }

    private func submit(_ text: String, requestID: String) async -> ResolveKitSendOutcome {
        let body = MessageSubmitRequest(text: text, requestID: requestID, locale: output.read().currentLocale)
        var refreshed = false
        var attempt = 0
        let maxAttempts = 8
        while attempt < maxAttempts {
            attempt += 1
            guard let backend, let session else { return .failed(reason: "Not connected") }
            do {
                return .accepted(turnID: try await backend.submitMessage(session, body).turnID)
            } catch let error {
                output.log("Sending the message failed (attempt \(attempt)): \(error)", level: .warning)
                if error.isChatUnavailable, !refreshed {
                    refreshed = true
                    if await refreshToken() { continue }
                }
                switch error.status {
                case 409?: output.log("A turn is still running on the server; retrying with the same request id")
                // The actor is reentrant: if another session started while this request was out, the answer
                // is about the old one and must not end the new one.
                case 410?:
                    if self.session?.id == session.id {
                        control?.yield(.sessionGone("The conversation ended on the server; a new one started. Send your message again."))
                    }
                    return .failed(reason: "the session has ended (410)")
                case 404?:
                    if self.session?.id == session.id { control?.yield(.sessionMissing) }
                    return .failed(reason: "the session no longer exists (404)")
                default:
                    guard error.isTransient else { return .failed(reason: error.description) }
                }
                if attempt == maxAttempts { return .failed(reason: error.description) }
                let delay = error.status == 409 ? Duration.milliseconds(500 * attempt) : Backoff.delay(forAttempt: attempt)
                do { try await clock.sleep(untilElapsed: clock.elapsed + delay) } catch {
                    return .failed(reason: "cancelled")
                }
            }
        }
        return .failed(reason: "gave up after \(maxAttempts) attempts")
    }

    /// With a turn running, no event for it and no call outstanding for `turnWatchdog`, asks `GET /messages`
    /// whether the answer is there (a turn may end with no event, §7.2, §10.8). Gives up after the server's
    /// 600 s turn lock would have expired.
    func runTurnWatchdog() async {
        var silentChecks = 0
        while !Task.isCancelled {
            // With no turn, or calls still outstanding (an approval or a function may take long), check again a
            // full period later; waking at the overdue deadline would loop without ever sleeping.
            let due = lastTurnActivity + configuration.turnWatchdog
            let isWaitingForCalls = activeTurnID == nil || hasOutstandingCalls
            let wakeAt = isWaitingForCalls ? clock.elapsed + configuration.turnWatchdog : max(due, clock.elapsed)
            do { try await clock.sleep(untilElapsed: wakeAt) } catch { return }
            guard activeTurnID != nil, !hasOutstandingCalls, clock.elapsed >= lastTurnActivity + configuration.turnWatchdog
            else {
                silentChecks = 0
                continue
            }
            silentChecks += 1
            await reconcileTurn(firstCheck: silentChecks == 1, giveUp: configuration.turnWatchdog * silentChecks >= .seconds(600))
        }
    }

    /// Whether a call of this session still has no outcome and the server still waits for it. A call past its
    /// server deadline no longer holds the watchdog back, whatever happened to it.
    var hasOutstandingCalls: Bool {
        let now = clock.elapsed
        return openCalls.values.contains { $0.serverDeadline > now }
    }

    /// Asks the history whether the turn ended unseen. Either way the stream missed events, so it is reopened
    /// without its cursor (a restarted in-memory backend renumbers events and hides them behind an old cursor,
    /// §10.10; without the reset every later event, tool calls included, would stay hidden too); while the turn
    /// is still running only on the first check. The call journal and ``HandledEvents`` keep the replay from
    /// repeating anything.
    private func reconcileTurn(firstCheck: Bool, giveUp: Bool) async {
        guard let backend, let session else { return }
        lastTurnActivity = clock.elapsed
        guard let history = try? await backend.messages(session), let last = history.last else { return }
        if last.role != "user" {
            if !output.read().messages.contains(where: { $0.id == last.id }), let text = last.content, !text.isEmpty {
                output.append(ResolveKitChatMessage(id: last.id, role: .assistant, text: text))
            }
            output.log("The turn ended without a terminal event; reconciled from the history")
            // The replay that follows brings the turn's `turn_complete`: its answer is already in the transcript.
            if let turnID = activeTurnID { _ = handledEvents.insert(HandledEvents.turnCompleted(turnID)) }
            finishTurn()
            streamReset?.yield()
        } else if giveUp {
            output.system("The assistant did not answer.")
            finishTurn()
        } else if firstCheck {
            streamReset?.yield()
        }
    }
}
