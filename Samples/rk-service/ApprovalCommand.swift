import Foundation
import ResolveKitTools

/// A request about approvals, from `rk-approve` or any client of the socket (`"command"` is the name):
/// ```
/// {"command": "approvals"}                                   the pending batches and remembered decisions
/// {"command": "subscribe"}                                   the same, then every change as an event line
/// {"command": "approve", "call_ids": ["…"]}
/// {"command": "approve", "call_id": "…", "arguments": {…}}   with arguments a person edited
/// {"command": "decline", "call_ids": ["…"], "reason": "…"}
/// {"command": "remember", "function": "…", "scope": "always" | {"hours": 8} | {"session": "…"},
///  "arguments": {…} (only exactly these) or "if": {"$.path": {"below": "/var/log"}} (only calls meeting it)}
/// {"command": "revoke", "remembered_id": "…"}               the id "remember" answered ("id" is the request's)
/// ```
/// A request may carry `"terminal"`, the operator's terminal as the client reports it, for the audit trail, and
/// `"session_id"` to name the session of the calls when the same call id waits in several.
enum ApprovalCommand: Equatable, Sendable {
    case list
    case subscribe
    case approve(callIDs: [String], sessionID: String?)
    case approveEdited(callID: String, sessionID: String?, arguments: JSONValue)
    case decline(callIDs: [String], sessionID: String?, reason: String?)
    case remember(
        function: String, arguments: JSONValue?, conditions: JSONValue?, scope: ToolApprovals.Remembered.Scope)
    case revoke(id: String)

    /// The command names this enum answers.
    static let names = ["approvals", "subscribe", "approve", "decline", "remember", "revoke"]

    /// Parses the command `name` of a request object; throws the reason when a member is missing or wrong.
    static func parse(_ name: String, _ object: JSONObject) throws(ParseFailure) -> ApprovalCommand {
        switch name {
        case "approvals": return .list
        case "subscribe": return .subscribe
        case "approve":
            if let callID = try string(object, "call_id") {
                guard let arguments = object["arguments"], arguments.objectValue != nil else {
                    throw ParseFailure("approve with \"call_id\" needs \"arguments\", an object (or use \"call_ids\")")
                }
                return .approveEdited(
                    callID: callID, sessionID: try string(object, "session_id"), arguments: arguments)
            }
            return .approve(callIDs: try callIDs(object), sessionID: try string(object, "session_id"))
        case "decline":
            guard object["reason"] == nil || object["reason"]?.stringValue != nil else {
                throw ParseFailure("reason must be a string")
            }
            return .decline(
                callIDs: try callIDs(object), sessionID: try string(object, "session_id"),
                reason: object["reason"]?.stringValue)
        case "remember":
            guard let function = object["function"]?.stringValue else {
                throw ParseFailure("remember needs \"function\", the function to allow")
            }
            if let conditions = object["if"], conditions.objectValue == nil {
                throw ParseFailure(#""if" must be an object of argument path to condition, as in a policy rule"#)
            }
            let scope = try scope(object["scope"])
            let exactly = try arguments(object)
            return .remember(function: function, arguments: exactly, conditions: object["if"], scope: scope)
        case "revoke":
            guard let id = object["remembered_id"]?.stringValue else {
                throw ParseFailure(#"revoke needs "remembered_id""#)
            }
            return .revoke(id: id)
        default:
            throw ParseFailure("unknown command \(name)")
        }
    }

    struct ParseFailure: Error {
        var reason: String
        init(_ reason: String) { self.reason = reason }
    }

    private static func callIDs(_ object: JSONObject) throws(ParseFailure) -> [String] {
        guard let ids = object["call_ids"]?.arrayValue?.compactMap(\.stringValue), !ids.isEmpty,
            ids.count == object["call_ids"]?.arrayValue?.count
        else { throw ParseFailure("\"call_ids\" must be a non-empty array of call ids") }
        return ids
    }

    private static func scope(_ value: JSONValue?) throws(ParseFailure) -> ToolApprovals.Remembered.Scope {
        if value?["hours"] != nil, value?["session"] != nil { throw ParseFailure(#"scope has "hours" and "session""#) }
        if value == nil || value?.stringValue == "always" { return .always }
        if let hours = value?["hours"]?.doubleValue, hours > 0, hours <= 24 * 366 {
            return .until(Date().addingTimeInterval(hours * 3600))
        }
        if let session = value?["session"]?.stringValue { return .session(session) }
        throw ParseFailure(#"scope must be "always", {"hours": N} or {"session": "<session id>"}"#)
    }
}

extension ApprovalCommand {
    /// The command as log fields, in words: `command=decline call_ids=call_1,call_2 reason="…"`. Edited arguments
    /// are not logged, only that there were some (they may hold what a person typed).
    var logMetadata: [String: String] {
        var fields: [String: String]
        switch self {
        case .list: fields = ["command": "approvals"]
        case .subscribe: fields = ["command": "subscribe"]
        case .approve(let callIDs, let sessionID):
            fields = ["command": "approve", "call_ids": callIDs.joined(separator: ",")]
            fields["session_id"] = sessionID
        case .approveEdited(let callID, let sessionID, _):
            fields = ["command": "approve", "call_ids": callID, "edited_arguments": "true"]
            fields["session_id"] = sessionID
        case .decline(let callIDs, let sessionID, let reason):
            fields = ["command": "decline", "call_ids": callIDs.joined(separator: ",")]
            fields["session_id"] = sessionID
            fields["reason"] = reason
        case .remember(let function, let arguments, let conditions, let scope):
            let until: String
            switch scope {
            case .always: until = "always"
            case .session(let id): until = "session " + id
            case .until(let date): until = "until " + ISO8601Timestamp.format(date)
            }
            fields = ["command": "remember", "function": function, "scope": until]
            if arguments != nil { fields["only_arguments"] = "true" }
            if conditions != nil { fields["only_if"] = "true" }
        case .revoke(let id): fields = ["command": "revoke", "remembered_id": id]
        }
        return fields
    }
}
