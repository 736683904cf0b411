import Foundation
import ResolveKit
import ResolveKitTesting
import Synchronization

/// Counts how often each call id ran a function, across every runtime of the test process.
final class ExecutionLedger: Sendable {
    static let shared = ExecutionLedger()
    private let counts = Mutex<[ToolCallID: Int]>([:])

    func record(_ context: ResolveKitFunctionContext) {
        counts.withLock { $0[context.callID ?? "?", default: 0] += 1 }
    }

    func count(_ callID: ToolCallID) -> Int { counts.withLock { $0[callID] ?? 0 } }
    func count(_ callID: String) -> Int { count(ToolCallID(callID)) }
    func total(of callIDs: some Sequence<ToolCallID>) -> Int { callIDs.reduce(0) { $0 + count($1) } }
}

/// The functions an approver was asked about, batch by batch.
actor AskedNames {
    var names: [[String]] = []
    func record(_ batch: [String]) { names.append(batch) }
}

enum TestTools {
    struct GetTime: AnyResolveKitFunction {
        static let resolveKitName = "get_time"
        static let resolveKitDescription = "Returns the time."
        static let resolveKitRequiresApproval = false
        static let resolveKitParametersSchema: JSONObject = ["type": "object", "properties": [:], "required": []]
        static func invoke(arguments: JSONObject, context: ResolveKitFunctionContext) async throws -> JSONValue {
            ExecutionLedger.shared.record(context)
            return "10:42"
        }
    }

    struct SetLights: AnyResolveKitFunction {
        static let resolveKitName = "set_lights"
        static let resolveKitDescription = "Turns lights on or off."
        static let resolveKitTimeoutSeconds: Int? = 60
        static let resolveKitParametersSchema: JSONObject = JSONSchema.object(
            ["room": JSONSchema(type: .string), "on": JSONSchema(type: .boolean)], required: ["room", "on"]
        ).jsonObject
        static func invoke(arguments: JSONObject, context: ResolveKitFunctionContext) async throws -> JSONValue {
            ExecutionLedger.shared.record(context)
            return ["room": arguments["room"] ?? nil, "on": arguments["on"] ?? nil, "ok": true]
        }
    }

    struct LockDoor: AnyResolveKitFunction {
        static let resolveKitName = "lock_door"
        static let resolveKitDescription = "Locks the front door."
        static let resolveKitParametersSchema: JSONObject = ["type": "object", "properties": [:]]
        static func invoke(arguments: JSONObject, context: ResolveKitFunctionContext) async throws -> JSONValue {
            ExecutionLedger.shared.record(context)
            return "locked"
        }
    }

    struct Boom: AnyResolveKitFunction {
        struct DiskFull: Error, CustomStringConvertible { var description: String { "disk is full" } }
        static let resolveKitName = "boom"
        static let resolveKitDescription = "Always fails."
        static let resolveKitRequiresApproval = false
        static let resolveKitParametersSchema: JSONObject = ["type": "object"]
        static func invoke(arguments: JSONObject, context: ResolveKitFunctionContext) async throws -> JSONValue {
            ExecutionLedger.shared.record(context)
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
            ExecutionLedger.shared.record(context)
            try await Task.sleep(for: .seconds(3600))
            return "finished"
        }
    }

    static let all: [any AnyResolveKitFunction.Type] = [GetTime.self, SetLights.self, LockDoor.self, Boom.self, Slow.self]

    static let threeCalls: [AgentScript.ToolCall] = [
        .init("get_time"), .init("set_lights", arguments: ["room": "kitchen", "on": true]), .init("lock_door"),
    ]
    static let badLights: [AgentScript.ToolCall] = [.init("set_lights", arguments: ["room": "kitchen", "on": "maybe"])]
    static let lights: [AgentScript.ToolCall] = [.init("set_lights", arguments: ["room": "kitchen", "on": true])]

    static let rules: [AgentScript.Rule] = [
        .init(.keywords(["three"]), rounds: [.toolCalls(threeCalls), .text("All done.")]),
        .init(.keywords(["bad lights"]), rounds: [.toolCalls(badLights), .text("Tried.")]),
        .init(.keywords(["lights"]), rounds: [.toolCalls(lights), .text("Lights done.")]),
        .init(.keywords(["boom"]), rounds: [.toolCalls([.init("boom")]), .text("It failed.")]),
        .init(.keywords(["slow"]), rounds: [.toolCalls([.init("slow")]), .text("Slow done.")]),
        .init(.keywords(["time"]), rounds: [.toolCalls([.init("get_time")]), .text(AgentScript.doneTemplate)]),
        .init(.keywords(["silent"]), rounds: [.empty]),
    ]

    static let script = AgentScript(rules: rules)
}
