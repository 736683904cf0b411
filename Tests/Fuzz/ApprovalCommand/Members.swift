import ResolveKitTools

@testable import rk_service

/// A request's members judged by the documented grammar (ApprovalCommand's doc comment, the README, what
/// rk-approve sends), written here apart from the parser: which members a request reads, which are missing, and
/// which have a value the grammar does not allow.
struct Members {
    static let names = [
        "id", "user", "message", "command", "terminal", "session_id", "call_id", "call_ids", "arguments", "reason",
        "function", "if", "scope", "remembered_id",
    ]
    static let commands: Set<String> = ["status", "approvals", "subscribe", "approve", "decline", "remember", "revoke"]

    let object: JSONObject

    init(_ object: JSONObject) { self.object = object }

    /// The members a request of this command reads, besides `id` and `user`.
    func read(by command: String?) -> [String] {
        switch command {
        case nil: ["message"]
        case "status": ["command"]
        case "approvals", "subscribe": ["command", "terminal"]
        case "approve" where object["call_id"] != nil: ["command", "terminal", "call_id", "arguments", "session_id"]
        case "approve": ["command", "terminal", "call_ids", "session_id"]
        case "decline": ["command", "terminal", "call_ids", "reason", "session_id"]
        case "remember": ["command", "terminal", "function", "if", "arguments", "scope"]
        case "revoke": ["command", "terminal", "remembered_id"]
        default: ["command"]
        }
    }

    /// The first member a parsed request reads whose value the grammar does not allow.
    func wrongMember(for request: ServiceRequest) -> String? {
        (["id", "user"] + read(by: object["command"]?.stringValue)).first(where: isWrong)
    }

    /// Whether `name` is present with a value the grammar does not allow.
    func isWrong(_ name: String) -> Bool {
        guard let value = object[name] else { return false }
        switch name {
        case "id": return value.stringValue == nil && value.doubleValue == nil
        case "user": return value.stringValue.map { $0.isEmpty || $0.utf8.count > 256 } ?? true
        case "message": return value.stringValue?.isEmpty ?? true
        case "command": return !Self.commands.contains(value.stringValue ?? "")
        // rk-approve sends null when it runs without a terminal.
        case "terminal": return value.stringValue == nil && value != .null
        case "call_ids":
            guard let ids = value.arrayValue, !ids.isEmpty else { return true }
            return !ids.allSatisfy { $0.stringValue != nil }
        case "arguments", "if": return value.objectValue == nil
        case "scope": return !isScope(value)
        default: return value.stringValue == nil
        }
    }

    /// `"always"`, `{"hours": N}` with N in (0, 366 days], or `{"session": "…"}`: one of them.
    private func isScope(_ value: JSONValue) -> Bool {
        if value == "always" { return true }
        switch (value["hours"], value["session"]) {
        case (let hours?, nil): return hours.doubleValue.map { $0 > 0 && $0 <= 24 * 366 } ?? false
        case (nil, let session?): return session.stringValue != nil
        default: return false
        }
    }

    /// Whether the request lacks `name`, which its command needs.
    func isMissing(_ name: String) -> Bool {
        guard object[name] == nil else { return false }
        switch (name, object["command"]?.stringValue) {
        case ("message", _), ("command", _): return object["message"] == nil && object["command"] == nil
        case ("call_ids", "approve"): return object["call_id"] == nil
        case ("arguments", "approve"): return object["call_id"] != nil
        case ("call_ids", "decline"), ("function", "remember"), ("remembered_id", "revoke"): return true
        default: return false
        }
    }

    /// Whether `name` is a reason to refuse the request.
    func isAtFault(_ name: String) -> Bool {
        let both = (name == "message" || name == "command") && object["message"] != nil && object["command"] != nil
        return both || isWrong(name) || isMissing(name)
    }

    /// The member names a reason mentions, as whole words.
    func blamed(in reason: String) -> [String] {
        let characters = Array(reason.unicodeScalars)
        func isWordCharacter(_ index: Int) -> Bool {
            guard index >= 0, index < characters.count else { return false }
            return characters[index].properties.isAlphabetic || characters[index] == "_"
                || ("0"..."9").contains(characters[index])
        }
        return Self.names.filter { name in
            let pattern = Array(name.unicodeScalars)
            guard pattern.count <= characters.count else { return false }
            return (0...(characters.count - pattern.count)).contains { start in
                Array(characters[start..<(start + pattern.count)]) == pattern && !isWordCharacter(start - 1)
                    && !isWordCharacter(start + pattern.count)
            }
        }
    }
}
