import Foundation
import ResolveKit
import ResolveKitTerminal
import ResolveKitTesting
import Testing

/// The approver plugged into a real runtime talking to the reference backend on a loopback port.
@Suite(.timeLimit(.minutes(1)))
struct TerminalApproverRuntimeTests {
    struct SetLights: AnyResolveKitFunction {
        static let resolveKitName = "set_lights"
        static let resolveKitDescription = "Turns lights on or off."
        static let resolveKitParametersSchema: JSONObject = [
            "type": "object", "properties": ["room": ["type": "string"]], "required": ["room"],
        ]
        static func invoke(arguments: JSONObject, context: ResolveKitFunctionContext) async throws -> JSONValue {
            ["ok": true]
        }
    }

    private static let script = AgentScript(rules: [
        .init(
            .keywords(["lights"]),
            rounds: [
                .toolCalls([
                    .init("set_lights", arguments: ["room": "kitchen"], humanDescription: "I will turn on the lights.")
                ]),
                .text("Lights done."),
            ])
    ])

    @Test("The runtime asks at the terminal, runs the approved call, and the attached checklist shows it done")
    func endToEnd() async throws {
        let backend = ReferenceBackend(configuration: ReferenceBackend.Configuration(script: Self.script))
        let server = try LoopbackHTTPServer.start(handler: backend.handler)
        let terminal = FakeTerminal()
        let approver = TerminalApprover(screen: TerminalScreen(terminal: terminal.io))
        let runtime = ResolveKitRuntime(
            configuration: ResolveKitConfiguration(
                baseURL: URL(string: server.baseURL)!, apiKeyProvider: { "rk_dev" },
                deviceIDProvider: { "device-terminal-e2e" }, functions: [SetLights.self], approver: approver,
                stateLocation: .inMemory))
        let events = runtime.events
        let attached = Task { await approver.attach(to: events) }
        do {
            try await runtime.start()
            #expect(await runtime.sendMessage("lights please") != .rejectedTurnInProgress)
            await terminal.waitForScreen(containing: "I will turn on the lights.")
            #expect(terminal.screen.contains("set_lights · needs approval"))
            terminal.type("a")
            await terminal.waitForScreen(containing: "✔ set_lights · done")
        } catch {
            Issue.record("the runtime did not start: \(error)")
        }
        attached.cancel()
        await runtime.stop()
        await backend.stop()
        await server.stop()
        #expect(!terminal.isInRawMode)
    }
}
