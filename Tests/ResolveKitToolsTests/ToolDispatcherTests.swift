import Testing

@testable import ResolveKitTools

enum Probe {
    struct Add: AnyResolveKitFunction {
        static let resolveKitName = "add"
        static let resolveKitDescription = "Adds two integers."
        static let resolveKitRequiresApproval = false
        static let resolveKitParametersSchema: JSONObject = JSONSchema.object(
            ["a": JSONSchema(type: .integer), "b": JSONSchema(type: .integer, maximum: 100)], required: ["a", "b"]
        ).jsonObject
        static func invoke(arguments: JSONObject, context: ResolveKitFunctionContext) async throws -> JSONValue {
            var reader = ResolveKitArgumentReader(arguments)
            let a = reader.required("a", as: Int.self)
            let b = reader.required("b", as: Int.self)
            guard let a, let b, reader.isValid else { throw reader.failure() }
            return .number(Double(a + b))
        }
    }

    struct Fail: AnyResolveKitFunction {
        struct DiskFull: Error, CustomStringConvertible { var description: String { "disk is full" } }
        static let resolveKitName = "fail"
        static let resolveKitDescription = "Always throws."
        static let resolveKitParametersSchema: JSONObject = ["type": "object"]
        static func invoke(arguments: JSONObject, context: ResolveKitFunctionContext) async throws -> JSONValue {
            if arguments["typed"] == true { throw ResolveKitFunctionError.invalidArguments("no such room") }
            throw DiskFull()
        }
    }

    /// Answers with the caller its context names.
    struct WhoAmI: AnyResolveKitFunction {
        enum Caller: ResolveKitDependencies.Key { static let defaultValue = "nobody" }
        static let resolveKitName = "who_am_i"
        static let resolveKitDescription = "Names the caller."
        static let resolveKitParametersSchema: JSONObject = ["type": "object"]
        static func invoke(arguments: JSONObject, context: ResolveKitFunctionContext) async throws -> JSONValue {
            .string(context[Caller.self])
        }
    }
}

struct ToolDispatcherTests {
    static var dependencies: ResolveKitDependencies {
        var dependencies = ResolveKitDependencies()
        dependencies[Probe.WhoAmI.Caller.self] = "user-42"
        return dependencies
    }

    let dispatcher = ToolDispatcher(
        registry: try! ResolveKitRegistry(functions: [Probe.Add.self, Probe.Fail.self, Probe.WhoAmI.self]),
        clock: .continuous, logger: .disabled, dependencies: dependencies)
    let allowed: Set<String> = ["add", "fail", "who_am_i"]

    func call(_ name: String, _ arguments: JSONValue) -> PendingToolCall {
        PendingToolCall(
            callID: "c", turnID: "t", functionName: name, arguments: arguments, humanDescription: "",
            requiresApproval: false, timeoutSeconds: 30, receivedAt: .zero)
    }

    func run(_ name: String, _ arguments: JSONValue) async -> ToolCallOutcome {
        switch dispatcher.prepare(call(name, arguments), allowedNames: allowed) {
        case .failure(let error): return .failure(error)
        case .success(let prepared):
            return await dispatcher.start(
                prepared.function, arguments: prepared.arguments, call: call(name, arguments), sessionID: "s",
                deadline: dispatcher.clock.elapsed + .seconds(30)
            ).outcome()
        }
    }

    @Test func coercesArgumentsAndReturnsTheResult() async {
        #expect(await run("add", ["a": "2", "b": 3.0]) == .success(5))
    }

    @Test func theFunctionReadsTheConfiguredDependenciesFromItsContext() async {
        #expect(await run("who_am_i", [:]) == .success("user-42"))
    }

    static let failures: [(String, JSONValue, String)] = [
        ("nope", [:], "Unknown function: nope"),
        ("add", [1, 2], "Invalid arguments: expected a JSON object, got array"),
        ("add", ["a": 1], "Invalid arguments: $.b: is required"),
        (
            "add", ["a": "x", "b": 101],
            #"Invalid arguments: $.a: expected integer, got string "x"; $.b: must be at most 100"#
        ),
        ("fail", [:], "disk is full"),
        ("fail", ["typed": true], "no such room"),
    ]

    @Test(arguments: failures)
    func turnsEveryFailureIntoAnErrorResultWithAUsefulMessage(name: String, arguments: JSONValue, message: String) async
    {
        guard case .failure(let error) = await run(name, arguments) else {
            Issue.record("expected a failure")
            return
        }
        #expect(error.message == message)
    }

    @Test func refusesFunctionsTheSessionDoesNotAllow() {
        guard case .failure(let error) = dispatcher.prepare(call("add", ["a": 1, "b": 2]), allowedNames: ["fail"])
        else {
            Issue.record("expected a refusal")
            return
        }
        #expect(error.code == .notAllowed)
    }
}
