import Foundation
import ResolveKitTools

@testable import rk_service

/// A parsed request written the way a client writes it: only the members it uses.
enum ClientEncoding {
    /// `scope` is the original's, used for a scope until a time (the request keeps the end, not the hours).
    static func encode(_ request: ServiceRequest, scope original: JSONValue?) -> JSONValue {
        var object: JSONObject = [:]
        if let id = request.id { object["id"] = id }
        if let user = request.user { object["user"] = .string(user) }
        switch request.kind {
        case .message(let text): object["message"] = .string(text)
        case .status: object["command"] = "status"
        case .approval(let command):
            if let terminal = request.terminal { object["terminal"] = .string(terminal) }
            object.merge(encode(command, scope: original)) { $1 }
        }
        return .object(object)
    }

    private static func encode(_ command: ApprovalCommand, scope original: JSONValue?) -> JSONObject {
        func session(_ id: String?) -> JSONValue? { id.map(JSONValue.string) }
        switch command {
        case .list: return ["command": "approvals"]
        case .subscribe: return ["command": "subscribe"]
        case .approve(let callIDs, let sessionID):
            return [
                "command": "approve", "call_ids": .array(callIDs.map(JSONValue.string)),
                "session_id": session(sessionID),
            ]
            .compactMapValues { $0 }
        case .approveEdited(let callID, let sessionID, let arguments):
            return [
                "command": "approve", "call_id": .string(callID), "arguments": arguments,
                "session_id": session(sessionID),
            ]
            .compactMapValues { $0 }
        case .decline(let callIDs, let sessionID, let reason):
            return [
                "command": "decline", "call_ids": .array(callIDs.map(JSONValue.string)),
                "session_id": session(sessionID),
                "reason": reason.map(JSONValue.string),
            ].compactMapValues { $0 }
        case .remember(let function, let arguments, let conditions, let scope):
            let scopeValue: JSONValue? =
                switch scope {
                case .always: "always"
                case .session(let id): ["session": .string(id)]
                case .until: original
                }
            return [
                "command": "remember", "function": .string(function), "arguments": arguments, "if": conditions,
                "scope": scopeValue,
            ].compactMapValues { $0 }
        case .revoke(let id): return ["command": "revoke", "remembered_id": .string(id)]
        }
    }
}

/// Requests are the same, a scope's end within a minute (each parse reads the clock).
enum Equivalence {
    static func same(_ one: ServiceRequest, _ other: ServiceRequest) -> Bool {
        guard case .approval(.remember(let function, let arguments, let conditions, .until(let end))) = one.kind,
            case .approval(.remember(function, arguments, conditions, .until(let otherEnd))) = other.kind
        else { return one == other }
        return one.id == other.id && one.user == other.user && one.terminal == other.terminal
            && abs(end.timeIntervalSince(otherEnd)) < 60
    }
}
