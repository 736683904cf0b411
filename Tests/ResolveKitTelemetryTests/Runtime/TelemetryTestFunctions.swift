import ResolveKit
import ResolveKitTesting
import Synchronization

/// The functions the runtime telemetry tests register, and the agent that calls them.
enum TelemetryTestFunctions {
    /// What each call's function saw of its trace, by call id.
    static let seenContexts = Mutex<[String: SpanContext]>([:])

    struct GetWeather: AnyResolveKitFunction {
        static let resolveKitName = "get_weather"
        static let resolveKitDescription = "Returns the weather."
        static let resolveKitRequiresApproval = false
        static let resolveKitParametersSchema: JSONObject = [
            "type": "object", "properties": ["city": ["type": "string"]],
        ]
        static func invoke(arguments: JSONObject, context: ResolveKitFunctionContext) async throws -> JSONValue {
            if let seen = context.spanContext { seenContexts.withLock { $0[context.callID?.rawValue ?? ""] = seen } }
            context.logger.info("looking at the sky")
            return "sunny"
        }
    }

    struct SetLights: AnyResolveKitFunction {
        static let resolveKitName = "set_lights"
        static let resolveKitDescription = "Turns the lights on or off."
        static let resolveKitParametersSchema: JSONObject = [
            "type": "object", "properties": ["room": ["type": "string"]],
        ]
        static func invoke(arguments: JSONObject, context: ResolveKitFunctionContext) async throws -> JSONValue {
            if let seen = context.spanContext { seenContexts.withLock { $0[context.callID?.rawValue ?? ""] = seen } }
            return "done"
        }
    }

    struct DeleteFile: AnyResolveKitFunction {
        static let resolveKitName = "delete_file"
        static let resolveKitDescription = "Deletes a file."
        static let resolveKitParametersSchema: JSONObject = [
            "type": "object", "properties": ["path": ["type": "string"]],
        ]
        static func invoke(arguments: JSONObject, context: ResolveKitFunctionContext) async throws -> JSONValue {
            "deleted"
        }
    }

    struct Boom: AnyResolveKitFunction {
        struct DiskFull: Error, CustomStringConvertible { var description: String { "disk is full" } }
        static let resolveKitName = "boom"
        static let resolveKitDescription = "Always fails."
        static let resolveKitRequiresApproval = false
        static let resolveKitParametersSchema: JSONObject = ["type": "object"]
        static func invoke(arguments: JSONObject, context: ResolveKitFunctionContext) async throws -> JSONValue {
            throw DiskFull()
        }
    }

    struct Slow: AnyResolveKitFunction {
        static let resolveKitName = "slow"
        static let resolveKitDescription = "Never finishes on its own."
        static let resolveKitRequiresApproval = false
        static let resolveKitTimeoutSeconds: Int? = 5
        static let resolveKitParametersSchema: JSONObject = ["type": "object"]
        static func invoke(arguments: JSONObject, context: ResolveKitFunctionContext) async throws -> JSONValue {
            try await Task.sleep(for: .seconds(3600))
            return "finished"
        }
    }

    static let all: [any AnyResolveKitFunction.Type] = [
        GetWeather.self, SetLights.self, DeleteFile.self, Boom.self, Slow.self,
    ]

    /// Arguments that must never reach a label or a span attribute.
    static let secretArgument = "s3cr3t-argument-value"

    static let script = AgentScript(rules: [
        .init(
            .keywords(["two"]),
            rounds: [
                .toolCalls([
                    .init("set_lights", arguments: ["room": .string(secretArgument)]),
                    .init("delete_file", arguments: ["path": "/etc/passwd"]),
                ]),
                .text("Lights on; the file stays."),
            ]),
        .init(.keywords(["weather"]), rounds: [.toolCalls([.init("get_weather")]), .text("It is sunny.")]),
        .init(.keywords(["boom"]), rounds: [.toolCalls([.init("boom")]), .text("It failed.")]),
        .init(.keywords(["delete"]), rounds: [.toolCalls([.init("delete_file")]), .text("Not deleted.")]),
        .init(.keywords(["slow"]), rounds: [.toolCalls([.init("slow")]), .text("Slow done.")]),
    ])

    /// Lights are allowed, files are never deleted.
    static let policy = PolicyApprover(rules: ["set_lights": .allow, "delete_file": .deny])
}
