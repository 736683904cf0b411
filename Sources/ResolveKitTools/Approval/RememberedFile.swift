import Foundation

/// The JSON file of remembered approvals: `{"version": 1, "decisions": [...]}`, replaced atomically on change.
/// An unreadable or foreign file counts as empty, so a damaged file never approves anything.
enum RememberedFile {
    static func read(_ path: String) -> [ToolApprovals.Remembered]? {
        guard let data = FileManager.default.contents(atPath: path),
            let root = try? JSONValue(parsing: [UInt8](data)).objectValue,
            root["version"]?.intValue == 1, let decisions = root["decisions"]?.arrayValue
        else { return nil }
        return decisions.compactMap { $0.objectValue.flatMap(decode) }
    }

    static func write(_ decisions: [ToolApprovals.Remembered], to path: String) throws {
        let folder = (path as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let root: JSONObject = ["version": 1, "decisions": .array(decisions.map { .object(encode($0)) })]
        let bytes = JSONValue.object(root).serializedBytes(options: .sortedKeys)
        try Data(bytes).write(to: URL(fileURLWithPath: path), options: .atomic)
    }

    static func encode(_ decision: ToolApprovals.Remembered) -> JSONObject {
        var object: JSONObject = [
            "id": .string(decision.id), "function": .string(decision.functionName),
            "schema_digest": .string(decision.schemaDigest),
            "created_at": .number(decision.createdAt.timeIntervalSince1970), "created_by": .string(decision.createdBy),
        ]
        if let arguments = decision.arguments { object["arguments"] = arguments }
        if let conditions = decision.conditions { object["if"] = PolicyApprover.ArgumentRule.ifObject(conditions) }
        switch decision.scope {
        case .session(let id): object["scope"] = ["session": .string(id)]
        case .until(let end): object["scope"] = ["until": .number(end.timeIntervalSince1970)]
        case .always: object["scope"] = "always"
        }
        return object
    }

    static func decode(_ object: JSONObject) -> ToolApprovals.Remembered? {
        guard let id = object["id"]?.stringValue, let function = object["function"]?.stringValue,
            let digest = object["schema_digest"]?.stringValue, let created = object["created_at"]?.doubleValue,
            let scope = object["scope"].flatMap(decodeScope)
        else { return nil }
        // A condition that no longer reads never approves: the whole decision is dropped.
        var conditions: [PolicyApprover.ArgumentRule.Conditioned]?
        if let ifObject = object["if"] {
            guard let read = try? PolicyApprover.conditions(ifObject, for: function) else { return nil }
            conditions = read
        }
        return ToolApprovals.Remembered(
            id: id, functionName: function, arguments: object["arguments"], conditions: conditions, scope: scope,
            schemaDigest: digest,
            createdAt: Date(timeIntervalSince1970: created), createdBy: object["created_by"]?.stringValue ?? "")
    }

    private static func decodeScope(_ value: JSONValue) -> ToolApprovals.Remembered.Scope? {
        if value.stringValue == "always" { return .always }
        if let session = value.objectValue?["session"]?.stringValue { return .session(session) }
        if let until = value.objectValue?["until"]?.doubleValue { return .until(Date(timeIntervalSince1970: until)) }
        return nil
    }
}
