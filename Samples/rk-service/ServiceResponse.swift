import ResolveKit

/// One answer line.
struct ServiceResponse: Equatable, Sendable {
    /// One tool call of the turn, as reported.
    struct ToolCall: Equatable, Sendable {
        var function: String
        var status: String
        var error: String?

        init(function: String, status: String, error: String? = nil) {
            self.function = function
            self.status = status
            self.error = error
        }

        /// The call's final (or last known) checklist state.
        init(_ item: ToolCallChecklistItem) {
            function = item.functionName
            switch item.status {
            case .completed: status = "completed"
            case .failed(let reason): (status, error) = ("failed", reason)
            // A call an approver declined (or whose approval timed out) is "declined", as everywhere else; one
            // abandoned otherwise (its session ended, the service is draining) is "cancelled".
            case .cancelled(let reason):
                (status, error) = (item.decision == .declined ? "declined" : "cancelled", reason)
            case .running: status = "running"
            case .pendingApproval: status = "pending_approval"
            }
        }
    }

    var id: JSONValue?
    var fields: JSONObject

    /// `{"status": "ok", "answer": …, "tool_calls": […]}`.
    static func answer(id: JSONValue?, text: String, toolCalls: [ToolCall]) -> ServiceResponse {
        ServiceResponse(id: id, fields: ["status": "ok", "answer": .string(text), "tool_calls": encode(toolCalls)])
    }

    /// `{"status": "error", "error": …}`, with the turn's tool calls when there was a turn.
    static func error(id: JSONValue?, _ reason: String, toolCalls: [ToolCall]? = nil) -> ServiceResponse {
        var fields: JSONObject = ["status": "error", "error": .string(reason)]
        if let toolCalls { fields["tool_calls"] = encode(toolCalls) }
        return ServiceResponse(id: id, fields: fields)
    }

    /// The answer as one line of JSON, without the newline.
    var line: String {
        var object = fields
        if let id { object["id"] = id }
        return JSONValue.object(object).serialized(options: .sortedKeys)
    }

    /// Whether this is an error answer.
    var isError: Bool { fields["status"]?.stringValue == "error" }

    private static func encode(_ calls: [ToolCall]) -> JSONValue {
        .array(
            calls.map { call in
                var object: JSONObject = ["function": .string(call.function), "status": .string(call.status)]
                if let error = call.error { object["error"] = .string(error) }
                return .object(object)
            })
    }
}
