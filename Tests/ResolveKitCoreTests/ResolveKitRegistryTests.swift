import ResolveKitCore
import Testing

struct ResolveKitRegistryTests {
    struct GetTime: AnyResolveKitFunction {
        static let resolveKitName = "get_local_time"
        static let resolveKitDescription = "Returns the local time."
        static let resolveKitRequiresApproval = false
        static let resolveKitParametersSchema: JSONObject = ["type": "object", "properties": [:], "required": []]
        static func invoke(arguments: JSONObject, context: ResolveKitFunctionContext) async throws -> JSONValue { "10:42" }
    }

    struct Named<Tag>: AnyResolveKitFunction {
        static var resolveKitName: String { names[String(describing: Tag.self)] ?? "x" }
        static var resolveKitDescription: String { descriptions[String(describing: Tag.self)] ?? "" }
        static var resolveKitTimeoutSeconds: Int? { timeouts[String(describing: Tag.self)] }
        static var resolveKitParametersSchema: JSONObject { schemas[String(describing: Tag.self)] ?? [:] }
        static func invoke(arguments: JSONObject, context: ResolveKitFunctionContext) async throws -> JSONValue { nil }
    }
    enum Spaced {}
    enum Reserved {}
    enum Long {}
    enum SlowTimeout {}
    enum ZeroTimeout {}
    enum Wordy {}
    enum BadSchema {}
    enum Duplicate {}
    static let names = [
        "Spaced": "set lights", "Reserved": "kb_search", "Long": String(repeating: "a", count: 65),
        "SlowTimeout": "slow", "ZeroTimeout": "zero", "Wordy": "wordy", "BadSchema": "bad", "Duplicate": "get_local_time",
    ]
    static let descriptions = ["Wordy": String(repeating: "w", count: 1001)]
    static let timeouts = ["SlowTimeout": 301, "ZeroTimeout": 0]
    static let schemas: [String: JSONObject] = ["BadSchema": ["type": 5]]

    static let rejections: [(any AnyResolveKitFunction.Type, ResolveKitRegistryError.Code)] = [
        (Named<Spaced>.self, .invalidName), (Named<Reserved>.self, .reservedName), (Named<Long>.self, .invalidName),
        (Named<SlowTimeout>.self, .invalidTimeout), (Named<ZeroTimeout>.self, .invalidTimeout),
        (Named<Wordy>.self, .descriptionTooLong), (Named<BadSchema>.self, .invalidSchema),
        (Named<Duplicate>.self, .duplicateName),
    ]

    @Test(arguments: rejections)
    func rejectsWhatTheBackendWouldRejectNamingTheType(function: any AnyResolveKitFunction.Type, code: ResolveKitRegistryError.Code) {
        #expect { try ResolveKitRegistry(functions: [GetTime.self, function]) } throws: { error in
            let error = error as! ResolveKitRegistryError
            return error.code == code && error.functionType.contains("Named<") && "\(error)".contains("Named<")
        }
    }

    enum SystemPack: ResolveKitFunctionPack {
        static let packName = "system_pack"
        static let supportedPlatforms: [ResolveKitPlatform] = [.linux]
        static let functions: [any AnyResolveKitFunction.Type] = [GetTime.self]
    }

    @Test func buildsTheBulkRegistrationPayload() throws {
        let registry = try ResolveKitRegistry(functions: [SetLights.self], functionPacks: [SystemPack.self])
        #expect(registry.functionNames == ["set_lights", "get_local_time"])
        #expect(registry.function(named: "get_local_time") == GetTime.self)
        #expect(registry.function(named: "missing") == nil)
        let body = registry.bulkRegistration().json
        #expect(body["functions"]?[0] == [
            "name": "set_lights", "description": "Turn lights on or off in a room",
            "parameters_schema": .object(SetLights.resolveKitParametersSchema), "timeout_seconds": 30,
            "requires_approval": true, "source": "app_inline",
        ])
        #expect(body["functions"]?[1] == [
            "name": "get_local_time", "description": "Returns the local time.",
            "parameters_schema": ["type": "object", "properties": [:], "required": []], "requires_approval": false,
            "availability": ["platforms": ["linux"]], "source": "playbook_pack", "pack_name": "system_pack",
        ])
    }

    @Test(arguments: [("a", true), ("get-time_2", true), ("", false), ("é", false), ("a.b", false)])
    func validatesNamesAgainstTheToolNameRule(name: String, valid: Bool) {
        #expect(ResolveKitRegistry.isValidName(name) == valid)
    }
}
