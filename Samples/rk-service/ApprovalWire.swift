import Foundation
import ResolveKit

/// How approvals look on the socket: batches, decisions and remembered decisions as JSON.
enum ApprovalWire {
    static func batch(_ request: ToolApprovalRequest) -> JSONValue {
        .object([
            "session_id": .string(request.sessionID), "batch_id": .number(Double(request.batchID)),
            "calls": .array(
                request.calls.map { call in
                    .object([
                        "call_id": .string(call.id.rawValue), "function": .string(call.call.functionName),
                        "arguments": call.call.arguments, "description": .string(call.call.humanDescription),
                        "seconds_left": .number(Double(call.timeRemaining.components.seconds)),
                    ])
                }),
        ])
    }

    static func remembered(_ decision: ToolApprovals.Remembered) -> JSONValue {
        var object: JSONObject = [
            "id": .string(decision.id), "function": .string(decision.functionName),
            "created_by": .string(decision.createdBy),
            "created_at": .string(ISO8601DateFormatter().string(from: decision.createdAt)),
        ]
        if let arguments = decision.arguments { object["arguments"] = arguments }
        if let conditions = decision.conditions {
            object["if"] = PolicyApprover.ArgumentRule.conditionsJSON(conditions)
        }
        switch decision.scope {
        case .always: object["scope"] = "always"
        case .session(let id): object["scope"] = ["session": .string(id)]
        case .until(let end): object["scope"] = ["until": .string(ISO8601DateFormatter().string(from: end))]
        }
        return .object(object)
    }

    static func decision(_ decision: ToolCallDecision) -> JSONObject {
        var object: JSONObject = ["decided_by": .string(decision.decider?.description ?? "unknown")]
        switch decision.verdict {
        case .approve, .attributed: object["decision"] = "approved"
        case .approveEdited(let arguments):
            object["decision"] = "approved_edited"
            object["arguments"] = arguments
        case .decline(let reason):
            object["decision"] = "declined"
            object["reason"] = .string(reason ?? "User denied action")
        }
        return object
    }

    /// One event line for a subscriber.
    static func event(_ update: ToolApprovals.Update) -> JSONValue {
        switch update {
        case .requested(let request): return ["event": "requested", "batch": batch(request)]
        case .decided(let sessionID, let callID, let decision):
            var object = Self.decision(decision)
            object["event"] = "decided"
            object["session_id"] = .string(sessionID)
            object["call_id"] = .string(callID.rawValue)
            return .object(object)
        case .withdrawn(let sessionID, let callID):
            return ["event": "withdrawn", "session_id": .string(sessionID), "call_id": .string(callID.rawValue)]
        case .remembered(let decision): return ["event": "remembered", "decision": remembered(decision)]
        case .revoked(let id): return ["event": "revoked", "id": .string(id)]
        }
    }
}
