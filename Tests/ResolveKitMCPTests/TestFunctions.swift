import ResolveKit
import Synchronization

/// Functions for the MCP tests.
enum MCPTestFunctions {
    /// Returns `{"room": …, "on": …}`; needs approval.
    struct SetLights: AnyResolveKitFunction {
        static let resolveKitName = "set_lights"
        static let resolveKitDescription = "Turns lights on or off."
        static let resolveKitTimeoutSeconds: Int? = 5
        static let resolveKitParametersSchema: JSONObject = [
            "type": "object", "properties": ["room": ["type": "string"], "on": ["type": "boolean"]],
            "required": ["room", "on"],
        ]
        static func invoke(arguments: JSONObject, context: ResolveKitFunctionContext) async throws -> JSONValue {
            ["room": arguments["room"] ?? nil, "on": arguments["on"] ?? nil]
        }
    }

    /// Returns a plain number (not an object); no approval.
    struct Answer: AnyResolveKitFunction {
        static let resolveKitName = "answer"
        static let resolveKitDescription = "Returns 42."
        static let resolveKitRequiresApproval = false
        static let resolveKitParametersSchema: JSONObject = ["type": "object", "properties": [:]]
        static func invoke(arguments: JSONObject, context: ResolveKitFunctionContext) async throws -> JSONValue { 42 }
    }

    /// Reports progress twice, then waits until cancelled; records that it saw the cancellation.
    struct Sleeper: AnyResolveKitFunction {
        static let sawCancellation = Mutex(0)
        static let resolveKitName = "sleeper"
        static let resolveKitDescription = "Waits until cancelled."
        static let resolveKitRequiresApproval = false
        static let resolveKitTimeoutSeconds: Int? = 300
        static let resolveKitParametersSchema: JSONObject = ["type": "object", "properties": [:]]
        static func invoke(arguments: JSONObject, context: ResolveKitFunctionContext) async throws -> JSONValue {
            context.reportProgress(1, of: 3, message: "started")
            context.reportProgress(1, of: 3, message: "a repeated value is not sent")
            context.reportProgress(2, of: 3)
            do {
                try await Task.sleep(for: .seconds(3600))
            } catch {
                sawCancellation.withLock { $0 += 1 }
                throw error
            }
            return "never"
        }
    }

    /// Fails with a message the model can act on.
    struct Broken: AnyResolveKitFunction {
        static let resolveKitName = "broken"
        static let resolveKitDescription = "Always fails."
        static let resolveKitRequiresApproval = false
        static let resolveKitParametersSchema: JSONObject = ["type": "object", "properties": [:]]
        static func invoke(arguments: JSONObject, context: ResolveKitFunctionContext) async throws -> JSONValue {
            throw ResolveKitFunctionError(code: .init("disk_full"), message: "The disk is full; free some space and try again.")
        }
    }

    static let all: [any AnyResolveKitFunction.Type] = [SetLights.self, Answer.self, Sleeper.self, Broken.self]
}
