import ResolveKitTools

/// The functions the fuzzed server serves: one of each kind of outcome, none that waits.
enum MCPFuzzFunctions {
    /// Gives its arguments back; needs no approval.
    struct Echo: AnyResolveKitFunction {
        static let resolveKitName = "echo"
        static let resolveKitDescription = "Returns its arguments."
        static let resolveKitRequiresApproval = false
        static let resolveKitParametersSchema: JSONObject = [
            "type": "object", "properties": ["text": ["type": "string"], "count": ["type": "integer"]],
        ]
        static func invoke(arguments: JSONObject, context: ResolveKitFunctionContext) async throws -> JSONValue {
            .object(arguments)
        }
    }

    /// Needs approval; the policy allows it.
    struct Gated: AnyResolveKitFunction {
        static let resolveKitName = "gated"
        static let resolveKitDescription = "Changes something."
        static let resolveKitParametersSchema: JSONObject = [
            "type": "object", "properties": ["room": ["type": "string"]], "required": ["room"],
        ]
        static func invoke(arguments: JSONObject, context: ResolveKitFunctionContext) async throws -> JSONValue {
            "done"
        }
    }

    /// Needs approval; the policy allows it for some arguments, denies the rest.
    struct Guarded: AnyResolveKitFunction {
        static let resolveKitName = "guarded"
        static let resolveKitDescription = "Reads a file."
        static let resolveKitTimeoutSeconds: Int? = 5
        static let resolveKitParametersSchema: JSONObject = [
            "type": "object", "properties": ["path": ["type": "string"]], "required": ["path"],
        ]
        static func invoke(arguments: JSONObject, context: ResolveKitFunctionContext) async throws -> JSONValue {
            ["read": arguments["path"] ?? nil]
        }
    }

    /// Fails with its own error.
    struct Fails: AnyResolveKitFunction {
        static let resolveKitName = "fails"
        static let resolveKitDescription = "Always fails."
        static let resolveKitRequiresApproval = false
        static let resolveKitParametersSchema: JSONObject = ["type": "object", "properties": [:]]
        static func invoke(arguments: JSONObject, context: ResolveKitFunctionContext) async throws -> JSONValue {
            throw ResolveKitFunctionError(code: .init("disk_full"), message: "The disk is full.")
        }
    }

    /// Reports progress (twice the same value, which must not be sent twice), then returns.
    struct Progress: AnyResolveKitFunction {
        static let resolveKitName = "progress"
        static let resolveKitDescription = "Counts to two."
        static let resolveKitRequiresApproval = false
        static let resolveKitParametersSchema: JSONObject = ["type": "object", "properties": [:]]
        static func invoke(arguments: JSONObject, context: ResolveKitFunctionContext) async throws -> JSONValue {
            context.reportProgress(1, of: 2, message: "half")
            context.reportProgress(1, of: 2)
            context.reportProgress(2, of: 2)
            return 2
        }
    }

    static let all: [any AnyResolveKitFunction.Type] = [
        Echo.self, Gated.self, Guarded.self, Fails.self, Progress.self,
    ]

    static let policies: [String: PolicyApprover.FunctionPolicy] = [
        "guarded": .init(
            rules: [
                .init(
                    conditions: [.init(path: "$.path", condition: .prefix("/tmp/"))], action: .allow,
                    source: "guarded rule 1")
            ], defaultRule: .deny)
    ]
}
