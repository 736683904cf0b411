/// One event of the session stream: the `data:` JSON of an SSE frame (WireProtocol §6.1).
package struct EventEnvelope: WireDecodable, WireEncodable, Hashable {
    /// The event id, the same as the SSE `id:` line; the cursor to resume after this event. Opaque.
    package var eventID: String
    /// The server turn this event belongs to.
    package var turnID: String
    /// The client `request_id` of the turn (a random UUID for dashboard events).
    package var requestID: String
    /// When the server appended the event, as sent (ISO-8601).
    package var timestamp: String
    /// The event type, e.g. `tool_call_request`.
    package var type: String
    /// The type-specific payload as sent.
    package var payload: JSONObject

    /// Creates an envelope.
    package init(eventID: String, turnID: String, requestID: String, timestamp: String, type: String, payload: JSONObject) {
        self.eventID = eventID
        self.turnID = turnID
        self.requestID = requestID
        self.timestamp = timestamp
        self.type = type
        self.payload = payload
    }

    /// Reads an envelope. The payload is kept raw; ``event()`` interprets it.
    package init(json: JSONValue) throws(WireDecodingError) {
        let reader = try WireObjectReader(json)
        eventID = try reader.string("event_id")
        turnID = try reader.string("turn_id")
        requestID = try reader.string("request_id")
        timestamp = try reader.string("timestamp")
        type = try reader.string("type")
        payload = try reader.optionalObject("payload") ?? [:]
    }

    /// The envelope as the server writes it.
    package var json: JSONValue {
        [
            "event_id": .string(eventID), "turn_id": .string(turnID), "request_id": .string(requestID),
            "timestamp": .string(timestamp), "type": .string(type), "payload": .object(payload),
        ]
    }

    /// The typed event. Unknown types are ``ResolveKitEvent/unknown(type:payload:)``, never an error.
    /// - Throws: ``WireDecodingError`` when a known type's payload lacks a field it must have.
    package func event() throws(WireDecodingError) -> ResolveKitEvent {
        let payload = JSONValue.object(payload)
        do {
            switch type {
            case ToolCallRequest.eventType: return .toolCallRequest(try ToolCallRequest(json: payload))
            case TurnComplete.eventType: return .turnComplete(try TurnComplete(json: payload))
            case AssistantTextDelta.eventType: return .assistantTextDelta(try AssistantTextDelta(json: payload))
            case ErrorEvent.eventType: return .error(try ErrorEvent(json: payload))
            case FeedbackRequested.eventType: return .feedbackRequested(try FeedbackRequested(json: payload))
            case SessionEscalated.eventType: return .sessionEscalated(try SessionEscalated(json: payload))
            case HumanMessage.eventType: return .humanMessage(try HumanMessage(json: payload))
            default: return .unknown(type: type, payload: self.payload)
            }
        } catch {
            throw WireDecodingError(path: "$.payload" + error.path.dropFirst(), message: error.message)
        }
    }
}

/// A typed stream event (WireProtocol §6.2–6.3).
package enum ResolveKitEvent: Sendable, Hashable {
    /// The model asks the client to run a function.
    case toolCallRequest(ToolCallRequest)
    /// The turn's final answer.
    case turnComplete(TurnComplete)
    /// Streaming text so far (declared by the backend; accepted for forward compatibility).
    case assistantTextDelta(AssistantTextDelta)
    /// The turn failed.
    case error(ErrorEvent)
    /// The backend asks for a rating.
    case feedbackRequested(FeedbackRequested)
    /// The conversation was handed to a person; the session is read-only afterwards.
    case sessionEscalated(SessionEscalated)
    /// A person in the dashboard replied.
    case humanMessage(HumanMessage)
    /// A type this client does not know; kept, never an error.
    case unknown(type: String, payload: JSONObject)
}
