import ResolveKitTools

/// Served functions for checking policies against: the Linux pack's names the seeds use, with their arguments.
enum FuzzFunctions {
    struct ReadLogTail: AnyResolveKitFunction {
        static let resolveKitName = "read_log_tail"
        static let resolveKitDescription = "Reads the end of a log."
        static let resolveKitParametersSchema: JSONObject = [
            "type": "object", "properties": ["path": ["type": "string"], "lines": ["type": "integer"]],
            "required": ["path"],
        ]
        static func invoke(arguments: JSONObject, context: ResolveKitFunctionContext) async throws -> JSONValue { nil }
    }

    struct ReadLog: AnyResolveKitFunction {
        static let resolveKitName = "read_log"
        static let resolveKitDescription = "Reads a log."
        static let resolveKitParametersSchema: JSONObject = [
            "type": "object",
            "properties": [
                "path": ["type": "string"], "lines": ["type": "integer"], "level": ["type": "string"],
                "options": ["type": "object", "properties": ["follow": ["type": "boolean"]]],
            ],
        ]
        static func invoke(arguments: JSONObject, context: ResolveKitFunctionContext) async throws -> JSONValue { nil }
    }

    struct ListDirectory: AnyResolveKitFunction {
        static let resolveKitName = "list_directory"
        static let resolveKitDescription = "Lists a folder."
        static let resolveKitParametersSchema: JSONObject = [
            "type": "object", "properties": ["path": ["type": "string"]], "required": ["path"],
        ]
        static func invoke(arguments: JSONObject, context: ResolveKitFunctionContext) async throws -> JSONValue { nil }
    }

    struct GetLocalTime: AnyResolveKitFunction {
        static let resolveKitName = "get_local_time"
        static let resolveKitDescription = "Tells the time."
        static let resolveKitRequiresApproval = false
        static let resolveKitParametersSchema: JSONObject = ["type": "object", "properties": [:]]
        static func invoke(arguments: JSONObject, context: ResolveKitFunctionContext) async throws -> JSONValue { nil }
    }

    static let registry: ResolveKitRegistry = {
        do {
            return try ResolveKitRegistry(
                functions: [ReadLogTail.self, ReadLog.self, ListDirectory.self, GetLocalTime.self], functionPacks: [])
        } catch {
            fatalError("PolicyFile fuzz harness: the functions were refused: \(error)")
        }
    }()
}
