import ResolveKitHTTP

extension SessionEngine {
    /// One stream event: advance the cursor, decode, and act. A malformed event is logged and skipped; the cursor
    /// still moves past it so it is not fetched again (§10.12).
    func handle(_ event: SSEEvent) async {
        if let id = event.id, !id.isEmpty {
            cursor = id
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
            if replayGuard?.isStale(envelope, timeoutSeconds: request.timeoutSeconds) == true {
                output.log("Ignored replayed call \(request.callID) (\(request.functionName)) from before this connection")
                return
            }
        } else if replayGuard?.isStale(envelope) == true {
            return
        }
        if let emitted = ISO8601Timestamp.parse(envelope.timestamp), newestHandledEventTime.map({ $0 < emitted }) ?? true {
            newestHandledEventTime = emitted
        }
        noteTurnActivity(envelope)
        if let key = HandledEvents.key(for: envelope, typed), !handledEvents.insert(key) {
            output.log("Ignored a repeated \(envelope.type) event of turn \(envelope.turnID)")
            return
        }
        switch typed {
        case .toolCallRequest(let request): receive(request, envelope: envelope)
        case .turnComplete(let complete):
            output.update { $0.assistantDraft = nil }
            output.append(ResolveKitChatMessage(id: envelope.eventID, role: .assistant, text: complete.fullText))
            endTurn(envelope)
        case .assistantTextDelta(let delta):
            output.update { $0.assistantDraft = delta.accumulated }
            output.emit(.assistantDraft(delta.accumulated))
        case .error(let error):
            output.system(error.message.isEmpty ? "The assistant failed (\(error.code))" : error.message)
            output.log("Turn error \(error.code): \(error.message)", level: .warning)
            endTurn(envelope)
        case .sessionEscalated(let escalation):
            output.system("The conversation was handed off to a person" + (escalation.reason.isEmpty ? "." : ": \(escalation.reason)"))
            endTurn(envelope)
        case .humanMessage(let message):
            output.append(ResolveKitChatMessage(
                id: message.messageID.isEmpty ? envelope.eventID : message.messageID, role: .humanAgent, text: message.text))
        case .feedbackRequested(let feedback):
            output.emit(.feedbackRequested(immediate: feedback.immediate))
        case .unknown(let type, _):
            output.log("Ignored an event of unknown type \(type)")
        }
    }

    /// Adopts the turn from the events when the `POST /messages` answer was lost, and feeds the watchdog.
    func noteTurnActivity(_ envelope: EventEnvelope) {
        if activeTurnID == nil, let pendingRequestID, envelope.requestID == pendingRequestID {
            startTurn(envelope.turnID)
        }
        if envelope.turnID == activeTurnID { lastTurnActivity = clock.elapsed }
    }

    func startTurn(_ turnID: String) {
        guard activeTurnID != turnID else { return }
        activeTurnID = turnID
        lastTurnActivity = clock.elapsed
        output.update { snapshot in
            snapshot.activeTurnID = turnID
            snapshot.isTurnInProgress = true
        }
        output.emit(.turnStarted(turnID: turnID))
    }

    /// Ends the active turn when `envelope` belongs to it (or to the request still awaiting its turn id).
    func endTurn(_ envelope: EventEnvelope) {
        guard envelope.turnID == activeTurnID || (activeTurnID == nil && envelope.requestID == pendingRequestID) else { return }
        finishTurn()
    }

    func finishTurn() {
        let turnID = activeTurnID
        if let turnID { _ = handledEvents.insert(HandledEvents.endedTurn(turnID)) }
        activeTurnID = nil
        pendingRequestID = nil
        output.update { snapshot in
            snapshot.activeTurnID = nil
            snapshot.isTurnInProgress = false
            snapshot.assistantDraft = nil
        }
        output.emit(.turnEnded(turnID: turnID))
    }
}
