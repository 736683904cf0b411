import ResolveKit
import ResolveKitTesting

/// The functions the soak registers: with and without approval, fast, slow (on the soak's manual clock) and one
/// that never finishes before its deadline. Each counts its executions in ``ExecutionLedger``.
enum SoakTools {
    /// The one time line of the soak: runtime, backend and slow functions all sleep on it.
    static let clock = ManualClock()

    struct Read: AnyResolveKitFunction {
        static let resolveKitName = "soak_read"
        static let resolveKitDescription = "Reads a value."
        static let resolveKitRequiresApproval = false
        static let resolveKitParametersSchema: JSONObject = ["type": "object", "properties": [:]]
        static func invoke(arguments: JSONObject, context: ResolveKitFunctionContext) async throws -> JSONValue {
            ExecutionLedger.shared.record(context)
            SoakActivity.shared.bump()
            return .string("value-\(context.callID ?? "?")")
        }
    }

    struct Write: AnyResolveKitFunction {
        static let resolveKitName = "soak_write"
        static let resolveKitDescription = "Writes a value; needs approval."
        static let resolveKitTimeoutSeconds: Int? = 60
        static let resolveKitParametersSchema: JSONObject = JSONSchema.object(
            ["key": JSONSchema(type: .string), "value": JSONSchema(type: .integer)], required: ["key", "value"]
        ).jsonObject
        static func invoke(arguments: JSONObject, context: ResolveKitFunctionContext) async throws -> JSONValue {
            ExecutionLedger.shared.record(context)
            SoakActivity.shared.bump()
            return ["written": arguments["key"] ?? nil]
        }
    }

    struct Slow: AnyResolveKitFunction {
        static let resolveKitName = "soak_slow"
        static let resolveKitDescription = "Takes a few seconds."
        static let resolveKitRequiresApproval = false
        static let resolveKitTimeoutSeconds: Int? = 30
        static let resolveKitParametersSchema: JSONObject = JSONSchema.object(
            ["seconds": JSONSchema(type: .integer)], required: ["seconds"]
        ).jsonObject
        static func invoke(arguments: JSONObject, context: ResolveKitFunctionContext) async throws -> JSONValue {
            ExecutionLedger.shared.record(context)
            SoakActivity.shared.bump()
            let seconds = arguments["seconds"]?.intValue ?? 1
            try await clock.sleep(until: clock.now.advanced(by: .seconds(seconds)))
            return .string("slept \(seconds)s")
        }
    }

    struct Hang: AnyResolveKitFunction {
        static let resolveKitName = "soak_hang"
        static let resolveKitDescription = "Never finishes in time."
        static let resolveKitRequiresApproval = false
        static let resolveKitTimeoutSeconds: Int? = 5
        static let resolveKitParametersSchema: JSONObject = ["type": "object"]
        static func invoke(arguments: JSONObject, context: ResolveKitFunctionContext) async throws -> JSONValue {
            ExecutionLedger.shared.record(context)
            SoakActivity.shared.bump()
            try await clock.sleep(until: clock.now.advanced(by: .seconds(3600)))
            return "finished"
        }
    }

    static let all: [any AnyResolveKitFunction.Type] = [Read.self, Write.self, Slow.self, Hang.self]

    static func write(_ value: JSONValue) -> AgentScript.ToolCall { .init("soak_write", arguments: ["key": "k", "value": value]) }
    static let read = AgentScript.ToolCall("soak_read")
    static func slow(_ seconds: Int) -> AgentScript.ToolCall { .init("soak_slow", arguments: ["seconds": .number(Double(seconds))]) }

    /// The shapes a soak turn can take, by the tag in the user's message.
    static let shapes: [(tag: String, rounds: [AgentScript.Round])] = [
        ("[read]", [.toolCalls([read]), .text("Read {result}.")]),
        ("[write]", [.toolCalls([write(1)]), .text("Wrote.")]),
        ("[mixed]", [.toolCalls([read, write(2), slow(3)]), .text("Mixed: {result} {result2} {result3}.")]),
        ("[rounds]", [.toolCalls([read]), .toolCalls([write(3), write(4)]), .text("Two rounds.", deltas: ["Two ", "rounds."])]),
        ("[text]", [.text("Just text.", deltas: ["Just ", "text."])]),
        ("[badargs]", [.toolCalls([write("not a number")]), .text("Refused.")]),
        ("[error]", [.error(code: "model_error", message: "The model failed")]),
        ("[hang]", [.toolCalls([.init("soak_hang")]), .text("Gave up.")]),
        ("[slow]", [.toolCalls([slow(8), read]), .text("Slow then read.")]),
    ]

    static let script = AgentScript(rules: shapes.map { AgentScript.Rule(.keywords([$0.tag]), rounds: $0.rounds) })
}
