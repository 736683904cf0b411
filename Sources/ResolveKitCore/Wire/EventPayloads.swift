/// `tool_call_request`: run a function and post its result (WireProtocol §6.2, §7.3).
package struct ToolCallRequest: WireDecodable, WireEncodable, Hashable {
    /// The event type name.
    package static let eventType = "tool_call_request"
    /// The call id the result must answer (may be empty if the provider omitted it, §10.13).
    package var callID: ToolCallID
    /// The function to run.
    package var functionName: String
    /// The arguments as the model sent them: normally an object, but any JSON value may arrive (§10.13).
    package var arguments: JSONValue
    /// How long the server waits for the result, counted from emission (approval time included).
    package var timeoutSeconds: Int
    /// The model's "I will …" sentence for the person approving.
    package var humanDescription: String
    /// The server's copy of the registered flag; the local registration is authoritative.
    package var requiresApproval: Bool

    /// Creates a request.
    package init(
        callID: ToolCallID, functionName: String, arguments: JSONValue, timeoutSeconds: Int = 30,
        humanDescription: String, requiresApproval: Bool = true
    ) {
        self.callID = callID
        self.functionName = functionName
        self.arguments = arguments
        self.timeoutSeconds = timeoutSeconds
        self.humanDescription = humanDescription
        self.requiresApproval = requiresApproval
    }

    /// Reads the payload. Missing `timeout_seconds`, `human_description` or `requires_approval` take the
    /// backend's defaults (30, `"I will run <name>"`, `true`).
    package init(json: JSONValue) throws(WireDecodingError) {
        let reader = try WireObjectReader(json)
        callID = ToolCallID(try reader.string("call_id"))
        functionName = try reader.string("function_name")
        arguments = reader.value("arguments") ?? .object([:])
        timeoutSeconds = try reader.optionalInt("timeout_seconds") ?? 30
        humanDescription = try reader.optionalString("human_description") ?? "I will run \(functionName)"
        requiresApproval = try reader.optionalBool("requires_approval") ?? true
    }

    /// The payload JSON.
    package var json: JSONValue {
        [
            "call_id": .string(callID.rawValue), "function_name": .string(functionName), "arguments": arguments,
            "timeout_seconds": .number(Double(timeoutSeconds)), "human_description": .string(humanDescription),
            "requires_approval": .bool(requiresApproval),
        ]
    }
}

/// `turn_complete`: the final answer of a turn.
package struct TurnComplete: WireDecodable, WireEncodable, Hashable {
    /// The event type name.
    package static let eventType = "turn_complete"
    /// The complete answer text.
    package var fullText: String
    /// Token usage; `nil` for scope rejections.
    package var usage: TokenUsage?

    /// Creates the payload.
    package init(fullText: String, usage: TokenUsage? = nil) {
        self.fullText = fullText
        self.usage = usage
    }

    /// Reads the payload.
    package init(json: JSONValue) throws(WireDecodingError) {
        let reader = try WireObjectReader(json)
        fullText = try reader.string("full_text")
        if let usage = reader.value("usage"), !usage.isNull {
            let usageReader = try reader.nested("usage")
            self.usage = TokenUsage(
                promptTokens: try usageReader.int("prompt_tokens"),
                completionTokens: try usageReader.int("completion_tokens")
            )
        } else {
            usage = nil
        }
    }

    /// The payload JSON.
    package var json: JSONValue {
        let usageJSON: JSONValue = usage.map {
            ["prompt_tokens": .number(Double($0.promptTokens)), "completion_tokens": .number(Double($0.completionTokens))]
        } ?? .null
        return ["full_text": .string(fullText), "usage": usageJSON]
    }
}

/// Token counts of a turn.
public struct TokenUsage: Sendable, Hashable {
    /// Tokens in the prompt.
    public var promptTokens: Int
    /// Tokens in the answer.
    public var completionTokens: Int

    /// Creates usage counts.
    public init(promptTokens: Int, completionTokens: Int) {
        self.promptTokens = promptTokens
        self.completionTokens = completionTokens
    }
}

/// `assistant_text_delta`: streaming text; `accumulated` replaces the draft.
package struct AssistantTextDelta: WireDecodable, WireEncodable, Hashable {
    /// The event type name.
    package static let eventType = "assistant_text_delta"
    /// The new text.
    package var delta: String
    /// All text of the answer so far.
    package var accumulated: String

    /// Creates the payload.
    package init(delta: String, accumulated: String) {
        self.delta = delta
        self.accumulated = accumulated
    }

    /// Reads the payload; a missing `accumulated` is taken to be the delta.
    package init(json: JSONValue) throws(WireDecodingError) {
        let reader = try WireObjectReader(json)
        delta = try reader.optionalString("delta") ?? ""
        accumulated = try reader.optionalString("accumulated") ?? delta
    }

    /// The payload JSON.
    package var json: JSONValue { ["delta": .string(delta), "accumulated": .string(accumulated)] }
}

/// `error`: the turn failed (WireProtocol §6.2: `chat_unavailable`, `llm_error`, `transport_error`).
package struct ErrorEvent: WireDecodable, WireEncodable, Hashable {
    /// The event type name.
    package static let eventType = "error"
    /// The error code.
    package var code: String
    /// A message for people.
    package var message: String
    /// Whether trying again may work (`true` in every current emission).
    package var recoverable: Bool

    /// Creates the payload.
    package init(code: String, message: String, recoverable: Bool = true) {
        self.code = code
        self.message = message
        self.recoverable = recoverable
    }

    /// Reads the payload.
    package init(json: JSONValue) throws(WireDecodingError) {
        let reader = try WireObjectReader(json)
        code = try reader.optionalString("code") ?? "unknown"
        message = try reader.optionalString("message") ?? ""
        recoverable = try reader.optionalBool("recoverable") ?? true
    }

    /// The payload JSON.
    package var json: JSONValue { ["code": .string(code), "message": .string(message), "recoverable": .bool(recoverable)] }
}

/// `feedback_requested`: ask the user for a rating.
package struct FeedbackRequested: WireDecodable, WireEncodable, Hashable {
    /// The event type name.
    package static let eventType = "feedback_requested"
    /// `true` when an agent resolved the session in the dashboard.
    package var immediate: Bool

    /// Creates the payload.
    package init(immediate: Bool) { self.immediate = immediate }

    /// Reads the payload.
    package init(json: JSONValue) throws(WireDecodingError) {
        immediate = try WireObjectReader(json).optionalBool("immediate") ?? false
    }

    /// The payload JSON.
    package var json: JSONValue { ["immediate": .bool(immediate)] }
}

/// `session_escalated`: a person takes over; the session answers 410 to the SDK afterwards.
package struct SessionEscalated: WireDecodable, WireEncodable, Hashable {
    /// The event type name.
    package static let eventType = "session_escalated"
    /// Why.
    package var reason: String

    /// Creates the payload.
    package init(reason: String) { self.reason = reason }

    /// Reads the payload.
    package init(json: JSONValue) throws(WireDecodingError) {
        reason = try WireObjectReader(json).optionalString("reason") ?? ""
    }

    /// The payload JSON.
    package var json: JSONValue { ["reason": .string(reason)] }
}

/// `human_message`: a dashboard agent replied.
package struct HumanMessage: WireDecodable, WireEncodable, Hashable {
    /// The event type name.
    package static let eventType = "human_message"
    /// The stored message's id.
    package var messageID: String
    /// The reply.
    package var text: String

    /// Creates the payload.
    package init(messageID: String, text: String) {
        self.messageID = messageID
        self.text = text
    }

    /// Reads the payload.
    package init(json: JSONValue) throws(WireDecodingError) {
        let reader = try WireObjectReader(json)
        messageID = try reader.optionalString("message_id") ?? ""
        text = try reader.string("text")
    }

    /// The payload JSON.
    package var json: JSONValue { ["message_id": .string(messageID), "text": .string(text)] }
}
