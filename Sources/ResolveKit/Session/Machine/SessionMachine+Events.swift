import ResolveKitHTTP

/// The events of the stream (§6): each is taken once, in order, and acted on.
extension SessionMachine {
    mutating func streamEvent(_ event: SSEEvent, _ now: Moment, _ out: inout SessionOutput) {
        let (intake, persistCursor) = intake.take(event, now: now.elapsed)
        if persistCursor { persistSession(now, &out) }
        turns.lock.sawActivity(now: now.elapsed)
        guard case .handle(let envelope, let typed) = intake else {
            if case .skip(let line?, let level) = intake { out.log(line, level) }
            return
        }
        if turns.tracker.observed(turnID: envelope.turnID, requestID: envelope.requestID, now: now.elapsed) {
            // The turn's first event came before the answer to its POST (or instead of a lost one): it was sent.
            if turns.outgoing?.requestID == envelope.requestID { messageDelivered(turnID: envelope.turnID, now, &out) }
            turnStarted(envelope.turnID, now, &out)
        }
        guard self.intake.firstTime(envelope, typed) else {
            out.log("Ignored a repeated \(envelope.type) event of turn \(envelope.turnID)")
            return
        }
        switch typed {
        case .toolCallRequest(let request):
            receive(request, envelope: envelope, now, &out)
        case .turnComplete(let complete):
            out.publish(.draft(nil))
            out.publish(.message(.init(id: envelope.eventID, role: .assistant, text: complete.fullText)))
            if turns.record?.turnID == envelope.turnID {
                turns.record?.text = complete.fullText
                turns.record?.usage = complete.usage
            }
            endTurn(envelope, .answered, now, &out)
        case .assistantTextDelta(let delta):
            out.publish(.draft(delta.accumulated))
        case .error(let error):
            let text = error.message.isEmpty ? "The assistant failed (\(error.code))" : error.message
            out.publish(.notice(text))
            out.log("Turn error \(error.code): \(error.message)", .warning)
            if turns.record?.turnID == envelope.turnID { turns.record?.text = text }
            endTurn(envelope, .agentError, now, &out)
        case .sessionEscalated(let escalation):
            let text = "The conversation was handed off to a person"
                + (escalation.reason.isEmpty ? "." : ": \(escalation.reason)")
            out.publish(.notice(text))
            if turns.record?.turnID == envelope.turnID { turns.record?.text = text }
            endTurn(envelope, .escalated, now, &out)
        case .humanMessage(let message):
            let id = message.messageID.isEmpty ? envelope.eventID : message.messageID
            out.publish(.message(.init(id: id, role: .humanAgent, text: message.text)))
        case .feedbackRequested(let feedback):
            out.publish(.feedbackRequested(immediate: feedback.immediate))
        case .unknown(let type, _):
            out.log("Ignored an event of unknown type \(type)")
        }
    }

    /// The turn started (the `POST` answer or its first event): hosts see it, its record begins, the watchdog
    /// follows it.
    mutating func turnStarted(_ turnID: String, _ now: Moment, _ out: inout SessionOutput) {
        turns.record = TurnRecord(turnID: turnID, requestID: turns.tracker.requestID)
        out.publish(.turnStarted(turnID: turnID))
        armWatchdog(now, &out)
    }

    /// Ends the current turn when `envelope` belongs to it (or to the request still awaiting its turn id). A turn
    /// that failed or was handed off takes its unfinished calls with it: the server waits for none of them.
    private mutating func endTurn(
        _ envelope: EventEnvelope, _ ending: ResolveKitTurnResult.Ending, _ now: Moment, _ out: inout SessionOutput
    ) {
        if ending != .answered { abandonCalls(ofTurn: envelope.turnID, reason: "its turn ended (\(ending))", now, &out) }
        guard turns.tracker.isCurrent(turnID: envelope.turnID, requestID: envelope.requestID) else { return }
        if turns.record == nil { turns.record = TurnRecord(turnID: envelope.turnID, requestID: envelope.requestID) }
        finishTurn(.success(ending), now, &out)
    }

    /// Ends the turn: hosts see it, the `ask` waiting on it gets its result or error, and the next queued `ask` may
    /// send.
    mutating func finishTurn(
        _ outcome: Result<ResolveKitTurnResult.Ending, ResolveKitError>, lost: Bool = false, _ now: Moment,
        _ out: inout SessionOutput
    ) {
        let (turnID, requestID) = lost ? turns.tracker.declareLost() : turns.tracker.finish()
        if let turnID { _ = intake.handledEvents.insert(HandledEvents.endedTurn(turnID)) }
        let record = turns.record
        turns.record = nil
        out.publish(.turnInProgress(false))
        out.publish(.draft(nil))
        out.publish(.turnEnded(turnID: turnID))
        out.publish(.turnFinished(requestID: requestID, turnID: turnID, outcome: outcome, usage: record?.usage))
        if lost { persistSession(now, &out) }
        if let requestID, let waiter = turns.askWaiters.removeValue(forKey: requestID) {
            let record = record ?? TurnRecord(turnID: turnID ?? "", requestID: requestID)
            let result = outcome.map(record.result).mapError { error in
                var error = error
                error.turnSoFar = record.result(.unfinished)
                return error
            }
            out.append(.reply(waiter, .turn(result)))
            turns.timeouts[waiter] = nil
            disarm(.askTimeout(waiter), &out)
        }
        admitNextAsk(now, &out)
    }

    // MARK: The turn watchdog

    /// Arms the watchdog for the running turn: one silent for a period is reconciled from the history, and one
    /// still silent a period later is lost (§7.2, §10.8). With no turn it is disarmed when it fires.
    ///
    /// A turn's end leaves the watchdog armed, and the next turn keeps it: it fires no later than that turn needs
    /// (a period after an earlier moment) and looks again then. Arming and disarming a timer at every turn cost
    /// a sleeping task, a cancel and a wake of the timer thread per turn, which showed in the time to dispatch a
    /// call when many sessions are busy.
    mutating func armWatchdog(_ now: Moment, _ out: inout SessionOutput) {
        guard let turnID = turns.tracker.turnID, link.isOpen else {
            disarm(.turnWatchdog, &out)
            return
        }
        let outstanding = calls.pipeline.hasOutstandingCalls(now: now.elapsed)
        switch turns.tracker.watchdog(now: now.elapsed, hasOutstandingCalls: outstanding) {
        case .sleep(let until):
            if let armed = timers[.turnWatchdog], armed <= until { break }
            arm(.turnWatchdog, at: until, &out)
        case .reconcile(let firstCheck):
            disarm(.turnWatchdog, &out)
            out.append(.send(
                .history, access: session?.access,
                tag: .watchdog(turnID: turnID, firstCheck: firstCheck, epoch: link.epoch)))
        }
    }

    /// The history says whether the turn ended unseen. Either way the stream missed events, so it is reopened
    /// without its cursor; while the turn is still running only on the first check. A turn still unanswered at a
    /// later check is lost, and so is one whose history cannot be read then either: a backend that went away
    /// mid-turn must not leave `ask` waiting for ever.
    mutating func watchdogAnswered(
        _ turnID: String, firstCheck: Bool, _ result: Result<BackendAnswer, BackendFailure>, _ now: Moment,
        _ out: inout SessionOutput
    ) {
        guard turns.tracker.turnID == turnID else { return }
        guard case .success(.history(let history)) = result else {
            out.log("The turn watchdog could not read the history: \(Self.describe(result))", .warning)
            if firstCheck {
                armWatchdog(now, &out)
            } else {
                let reason = "no event for two watchdog periods, and the history could not be read"
                loseTurn(turnID, because: reason, now, &out)
            }
            return
        }
        if let last = history.last, last.role != "user" {
            if let text = last.content, !text.isEmpty {
                out.publish(.history([last]))
                turns.record?.text = text
            }
            out.log("The turn ended without a terminal event; reconciled from the history")
            // The replay that follows brings the turn's `turn_complete`: its answer is already in the transcript.
            _ = intake.handledEvents.insert(HandledEvents.turnCompleted(turnID))
            finishTurn(.success(.answered), now, &out)
            resetStream(now, &out)
        } else if firstCheck {
            resetStream(now, &out)
            armWatchdog(now, &out)
        } else {
            loseTurn(turnID, because: "no event and no answer for two watchdog periods", now, &out)
        }
    }

    /// Ends the silent turn as lost: the user is told once, and the session is remembered as possibly holding its
    /// lock (§7.6).
    private mutating func loseTurn(
        _ turnID: String, because reason: String, _ now: Moment, _ out: inout SessionOutput
    ) {
        out.publish(.notice("The assistant did not answer."))
        out.log("Turn \(turnID) is lost: \(reason)", .warning)
        let error = ResolveKitError(
            .turnLost, "The backend lost the turn: no event and no answer within \(settings.turnWatchdog * 2)")
        finishTurn(.failure(error), lost: true, now, &out)
    }
}
