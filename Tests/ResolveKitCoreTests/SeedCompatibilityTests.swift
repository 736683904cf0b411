import ResolveKitCore
import Testing

// The manual example of the reference iOS SDK's README, unchanged.
struct SetLights: AnyResolveKitFunction {
    static let resolveKitName = "set_lights"
    static let resolveKitDescription = "Turn lights on or off in a room"
    static let resolveKitRequiresApproval = true // default; omit to use true
    static let resolveKitTimeoutSeconds: Int? = 30
    static let resolveKitParametersSchema: JSONObject = [
        "type": .string("object"),
        "properties": .object([
            "room": .object(["type": .string("string")]),
            "on": .object(["type": .string("boolean")])
        ]),
        "required": .array([.string("room"), .string("on")])
    ]
    static func invoke(arguments: JSONObject, context: ResolveKitFunctionContext) async throws -> JSONValue {
        guard
            let room = arguments["room"].flatMap(TypeResolver.coerceString),
            let on = arguments["on"].flatMap(TypeResolver.coerceBool)
        else {
            throw ResolveKitFunctionError.invalidArguments("Expected room:String and on:Bool")
        }
        return .string("Set \(room) lights to \(on ? 100 : 0)%")
    }
}

struct SeedCompatibilityTests {
    @Test func theSeedsHandWrittenFunctionRunsUnchanged() async throws {
        let context = ResolveKitFunctionContext(sessionID: "s", requestID: "r")
        let result = try await SetLights.invoke(arguments: ["room": "kitchen", "on": 1], context: context)
        #expect(result == "Set kitchen lights to 100%")
        await #expect(throws: ResolveKitFunctionError.invalidArguments("Expected room:String and on:Bool")) {
            try await SetLights.invoke(arguments: ["room": "kitchen"], context: context)
        }
    }

    @Test func linuxIsAPlatform() {
        #expect(ResolveKitPlatform(rawValue: "linux") == .linux)
    }
}
