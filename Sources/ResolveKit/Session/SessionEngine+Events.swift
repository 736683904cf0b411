import Foundation
import ResolveKitHTTP

extension SessionEngine {
    /// One stream event: advance the cursor, decode, and act. A malformed event is logged and skipped; the cursor
    /// still moves past it so it is not fetched again (§10.12).
    func handle(_ event: SSEEvent) {
        if let id = event.id, !id.isEmpty, progress.cursor.advance(to: id, now: clock.elapsed) {
            persistSession()
        }
        let envelope: EventEnvelope
        let typed: ResolveKitEvent
        do {
            envelope = try EventEnvelope(jsonBytes: Array(event.data.utf8))
            typed = try envelope.event()
        } catch {
            output.log("Skipped a malformed \(event.type) event \(event.id ?? "-"): \(error)", level: .warning)
            return
        }
        if case .toolCallRequest(let request) = typed {
            if progress.replayGuard?.isStale(envelope, timeoutSeconds: request.timeoutSeconds) == true {
                output.log("Ignored replayed call \(request.callID) (\(request.functionName)) from before this connection")
                return
            }
        } else if progress.replayGuard?.isStale(envelope) == true {
            return
        }
        if let emitted = ISO8601Timestamp.parse(envelope.timestamp), progress.newestHandledEventTime.map({ $0 < emitted }) ?? true {
            progress.newestHandledEventTime = emitted
        }
        if turns.observed(turnID: envelope.turnID, requestID: envelope.requestID, now: clock.elapsed) {
            turnStarted(envelope.turnID)
        }
        if let key = HandledEvents.key(for: envelope, typed), !progress.handledEvents.insert(key) {
            output.log("Ignored a repeated \(envelope.type) event of turn \(envelope.turnID)")
            return
        }
        switch typed {
        case .toolCallRequest(let request): receive(request, envelope: envelope)
        case .turnComplete(let complete):
            output.update { $0.assistantDraft = nil }
            output.append(ResolveKitChatMessage(id: envelope.eventID, role: .assistant, text: complete.fullText))
            if turnRecord?.turnID == envelope.turnID {
                turnRecord?.text = complete.fullText
                turnRecord?.usage = complete.usage
            }
            endTurn(envelope, .answered)
        case .assistantTextDelta(let delta):
            output.update { $0.assistantDraft = delta.accumulated }
            output.emit(.assistantDraft(delta.accumulated))
        case .error(let error):
            let text = error.message.isEmpty ? "The assistant failed (\(error.code))" : error.message
            output.system(text)
            output.log("Turn error \(error.code): \(error.message)", level: .warning)
            if turnRecord?.turnID == envelope.turnID { turnRecord?.text = text }
            endTurn(envelope, .agentError)
        case .sessionEscalated(let escalation):
            let text = "The conversation was handed off to a person" + (escalation.reason.isEmpty ? "." : ": \(escalation.reason)")
            output.system(text)
            if turnRecord?.turnID == envelope.turnID { turnRecord?.text = text }
            endTurn(envelope, .escalated)
        case .humanMessage(let message):
            output.append(ResolveKitChatMessage(
                id: message.messageID.isEmpty ? envelope.eventID : message.messageID, role: .humanAgent, text: message.text))
        case .feedbackRequested(let feedback):
            output.emit(.feedbackRequested(immediate: feedback.immediate))
        case .unknown(let type, _):
            output.log("Ignored an event of unknown type \(type)")
        }
    }

    /// The turn started (the `POST` answer or its first event): hosts see it, and its record begins.
    func turnStarted(_ turnID: String) {
        turnRecord = TurnRecord(turnID: turnID, requestID: turns.requestID)
        output.update { snapshot in
            snapshot.activeTurnID = turnID
            snapshot.isTurnInProgress = true
        }
        output.emit(.turnStarted(turnID: turnID))
        startTurnWatchdog()
    }

    /// Ends the current turn when `envelope` belongs to it (or to the request still awaiting its turn id). A turn
    /// that failed or was handed off takes its unfinished calls with it: the server waits for none of them.
    func endTurn(_ envelope: EventEnvelope, _ ending: ResolveKitTurnResult.Ending) {
        guard turns.isCurrent(turnID: envelope.turnID, requestID: envelope.requestID) else {
            if ending != .answered { abandonCalls(ofTurn: envelope.turnID, reason: "its turn ended (\(ending))") }
            return
        }
        if turnRecord == nil { turnRecord = TurnRecord(turnID: envelope.turnID, requestID: envelope.requestID) }
        if ending != .answered { abandonCalls(ofTurn: envelope.turnID, reason: "its turn ended (\(ending))") }
        finishTurn(.success(ending))
    }

    /// Ends the turn: hosts see it, the `ask` waiting on it gets its result or error, and the next queued `ask`
    /// may send.
    func finishTurn(_ outcome: Result<ResolveKitTurnResult.Ending, ResolveKitError>, lost: Bool = false) {
        let (turnID, requestID) = lost ? turns.declareLost() : turns.finish()
        if let turnID { _ = progress.handledEvents.insert(HandledEvents.endedTurn(turnID)) }
        let record = turnRecord
        turnRecord = nil
        output.update { snapshot in
            snapshot.activeTurnID = nil
            snapshot.isTurnInProgress = false
            snapshot.assistantDraft = nil
        }
        output.emit(.turnEnded(turnID: turnID))
        if let requestID, let waiter = waiting.turns.removeValue(forKey: requestID) {
            let record = record ?? TurnRecord(turnID: turnID ?? "", requestID: requestID)
            waiter.fulfill(outcome.map(record.result).mapError { error in
                var error = error
                error.turnSoFar = record.result(.unfinished)
                return error
            })
        }
        admitNextAsk()
    }

    /// Every waiting `ask` ends with `error` (the session they waited on is gone).
    func endTurnWaiters(_ error: ResolveKitError, except sending: String? = nil) {
        for (requestID, waiter) in waiting.turns where requestID != sending {
            var error = error
            if let record = turnRecord, record.requestID == requestID { error.turnSoFar = record.result(.unfinished) }
            waiter.fulfill(.failure(error))
        }
        waiting.turns = waiting.turns.filter { $0.key == sending }
    }
}
