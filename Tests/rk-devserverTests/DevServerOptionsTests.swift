import Foundation
import ResolveKitCLI
import ResolveKitCore
import ResolveKitTesting
import Testing

@testable import rk_devserver

struct DevServerOptionsTests {
    @Test("Flags set the port, keys, TTLs, cap and id style")
    func parsesFlags() throws {
        let options = try DevServerOptions.parse([
            "--port", "9090", "--api-key", "rk_a", "--api-key", "rk_b", "--session-ttl", "60", "--token-ttl", "30",
            "--stream-cap", "5", "--keep-alive", "2", "--event-ids", "numeric", "--max-tool-rounds", "3",
        ])
        #expect(options.port == 9090)
        #expect(options.configuration.apiKeys == ["rk_a", "rk_b"])
        #expect(options.configuration.sessionTTL == .seconds(60))
        #expect(options.configuration.capabilityTokenTTL == .seconds(30))
        #expect(options.configuration.streamConnectionCap == .seconds(5))
        #expect(options.configuration.keepAliveInterval == .seconds(2))
        #expect(options.configuration.eventIDStyle == .numeric)
        #expect(options.configuration.maxToolRounds == 3)
    }

    @Test("No flags give the defaults: port 8080 and the key rk_dev")
    func defaults() throws {
        let options = try DevServerOptions.parse([])
        #expect(options.port == 8080)
        #expect(options.configuration.apiKeys == ["rk_dev"])
    }

    @Test("A fault spec names method, path pattern, number and optional count")
    func faultSpec() throws {
        let spec = try DevServerOptions.endpointSpec("--fail", "POST /v1/sessions/*/tool-results:503:2")
        #expect(spec.endpoint == FaultPlan.Endpoint("POST", "/v1/sessions/*/tool-results"))
        #expect(spec.amount == 503)
        #expect(spec.times == 2)
        #expect(try DevServerOptions.endpointSpec("--delay", "* /health:250").times == .max)
    }

    @Test(
        "Mistakes are usage errors with a message",
        arguments: [["--port"], ["--port", "70000"], ["--event-ids", "uuid"], ["--fail", "POST:503"], ["--what"]])
    func usageErrors(arguments: [String]) {
        #expect(throws: DevServerOptions.UsageError.self) { try DevServerOptions.parse(arguments) }
    }
}

/// `--script FILE`: JSON rules for exact scenarios, checked when the server starts.
struct DevServerScriptTests {
    static func file(_ text: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appending(path: "rk-script-\(UUID().uuidString).json").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func aScriptFileDecidesTheTurnsItsRulesMatch() async throws {
        let path = try Self.file(
            #"{"rules": [{"keywords": ["lights"], "calls": [{"function": "set_lights", "arguments": {"room": "hall"}}]},"#
                + #" {"always": true, "answer": "Only lights here."}]}"#)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let options = try DevServerOptions.parse(["--script", path])
        #expect(options.scriptPath == path)
        let script = options.configuration.script
        let tools = [AgentContext.Tool(name: "set_lights", description: "Lights.", parametersSchema: ["type": "object"])]
        let lights = await script.nextRound(
            AgentContext(userText: "the lights please", history: [], llmContext: .null, tools: tools, rounds: []))
        guard case .toolCalls(let calls) = lights else {
            Issue.record("expected the scripted call, got \(lights)")
            return
        }
        #expect(calls.map(\.functionName) == ["set_lights"])
        #expect(calls.first?.arguments == ["room": "hall"])
        let other = await script.nextRound(
            AgentContext(userText: "anything else", history: [], llmContext: .null, tools: tools, rounds: []))
        guard case .text(let answer, _) = other else {
            Issue.record("expected the scripted answer, got \(other)")
            return
        }
        #expect(answer == "Only lights here.")
    }

    @Test(arguments: [
        (#"{"rules": [{"answer": "x"}]}"#, #"rules[0] needs "keywords" (a non-empty array), "regex" or "always": true"#),
        (#"{"rules": [{"always": true}]}"#, #"rules[0] needs one of "calls", "answer", "error" or "escalate""#),
        (#"{"rules": [{"regex": "(", "answer": "x"}]}"#, "rules[0].regex is not a valid pattern"),
        (#"[]"#, #"expected an object with a "rules" array"#),
    ])
    func aWrongScriptIsAUsageErrorNamingTheFileAndTheRule(text: String, message: String) throws {
        let path = try Self.file(text)
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(throws: DevServerOptions.UsageError(message: "--script \(path): \(message)")) {
            try DevServerOptions.parse(["--script", path])
        }
    }

    @Test func aMissingScriptFileIsNamed() {
        #expect(throws: DevServerOptions.UsageError(message: "--script /nope.json does not exist")) {
            try DevServerOptions.parse(["--script", "/nope.json"])
        }
    }
}

struct DevServerAppIDTests {
    @Test func anAppIDThatIsNotAUUIDIsAUsageError() {
        #expect(
            throws: DevServerOptions.UsageError(
                message: "--app-id must be a UUID such as 00000000-0000-4000-8000-0000000a0001, got 'my-app'")
        ) {
            try DevServerOptions.parse(["--app-id", "my-app"])
        }
    }
}
