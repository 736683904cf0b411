import Foundation
import ResolveKit
import ResolveKitTesting
import Testing

@Suite(.timeLimit(.minutes(1)))
struct RuntimeAskTests {
    @Test func askReturnsTheAnswerAndEveryCallWithItsDecisionAndTiming() async throws {
        try await RuntimeHarness.run { harness in
            try await harness.withRuntime(harness.configuration()) { runtime in
                let result = try await runtime.ask("run three tools")
                #expect(result.ending == .answered)
                #expect(result.text == "All done.")
                #expect(result.toolCalls.map(\.functionName) == ["get_time", "set_lights", "lock_door"])
                #expect(result.toolCalls.allSatisfy { $0.status == .completed })
                #expect(result.toolCalls.map(\.decision) == [.notRequired, .approved, .approved])
                for call in result.toolCalls {
                    let finished = try #require(call.finishedAt)
                    #expect(call.receivedAt <= (call.startedAt ?? finished) && (call.startedAt ?? finished) <= finished)
                }
                #expect(!result.turnID.isEmpty)
            }
        }
    }

    @Test func asksSentTogetherWaitTheirTurnInsteadOfFailing() async throws {
        try await RuntimeHarness.run { harness in
            try await harness.withRuntime(harness.configuration()) { runtime in
                async let first = runtime.ask("what time is it")
                async let second = runtime.ask("switch on the lights")
                async let third = runtime.ask("what time is it again")
                let answers = try await [first, second, third].map(\.text)
                let time = #"Done. The get_time returned "10:42"."#
                #expect(answers.sorted() == [time, time, "Lights done."].sorted())
                #expect(harness.backend.counters.turnsStarted == 3)
            }
        }
    }

    @Test func aDeclinedCallIsPartOfTheResultNotAnError() async throws {
        try await RuntimeHarness.run { harness in
            let configuration = harness.configuration(approver: DenyAllApprover(reason: "Not today"))
            try await harness.withRuntime(configuration) { runtime in
                let result = try await runtime.ask("switch on the lights")
                #expect(result.ending == .answered)
                let call = try #require(result.toolCalls.first)
                #expect(call.decision == .declined)
                #expect(call.error == "Not today")
            }
        }
    }

    @Test func anEmptyMessageIsRefusedWithATypedError() async throws {
        try await RuntimeHarness.run { harness in
            try await harness.withRuntime(harness.configuration()) { runtime in
                await #expect(throws: ResolveKitError(.invalidMessage, "A message must have 1 to 32768 characters (and at most 32768 bytes)")) {
                    try await runtime.ask("")
                }
            }
        }
    }

    @Test func askBeforeStartSaysTheRuntimeIsNotStarted() async throws {
        let runtime = ResolveKitRuntime(configuration: ResolveKitConfiguration(apiKeyProvider: { "key" }, stateLocation: .inMemory))
        do throws(ResolveKitError) {
            _ = try await runtime.ask("hello")
            Issue.record("ask succeeded without a runtime")
        } catch {
            #expect(error.code == .notStarted)
        }
    }

    @Test func stoppingTheRuntimeEndsTheRunningAndTheQueuedAsksWithCancelled() async throws {
        try await RuntimeHarness.run { harness in
            let runtime = ResolveKitRuntime(configuration: harness.configuration())
            try await runtime.start()
            let running = Task { try await runtime.ask("run the slow tool") }
            await runtime.wait { $0.item("slow")?.status == .running }
            let queued = Task { try await runtime.ask("what time is it") }
            await runtime.stop()
            for (task, codes) in [(running, [ResolveKitError.Code.cancelled]), (queued, [.cancelled, .notStarted])] {
                // The queued ask may reach the runtime just after stop(): then it is refused as not started.
                do {
                    _ = try await task.value
                    Issue.record("an ask was answered after stop()")
                } catch let error as ResolveKitError {
                    #expect(codes.contains(error.code))
                }
            }
            #expect(harness.backend.counters.turnsStarted == 1)
        }
    }

    @Test func aTimeoutEndsTheWaitWithTurnTimedOut() async throws {
        try await RuntimeHarness.run { harness in
            try await harness.withRuntime(harness.configuration()) { runtime in
                do throws(ResolveKitError) {
                    _ = try await runtime.ask("run the slow tool", timeout: .milliseconds(100))
                    Issue.record("the slow turn answered within 100 ms")
                } catch {
                    #expect(error.code == .turnTimedOut)
                    #expect(error.isRetryable)
                }
            }
        }
    }
}

/// A host's own function, unknown to the reference backend's script: the default agent still calls it.
struct SetThermostat: AnyResolveKitFunction {
    static let resolveKitName = "set_thermostat"
    static let resolveKitDescription = "Set the heating mode and target temperature of a room's thermostat."
    static let resolveKitRequiresApproval = false
    static let resolveKitParametersSchema: JSONObject = [
        "type": "object", "required": ["room", "celsius", "mode"],
        "properties": [
            "room": ["type": "string"], "celsius": ["type": "integer", "minimum": 5, "maximum": 30],
            "mode": ["type": "string", "enum": ["heat", "cool", "off"]],
        ],
    ]
    static func invoke(arguments: JSONObject, context: ResolveKitFunctionContext) async throws -> JSONValue {
        ["room": arguments["room"] ?? .null, "mode": arguments["mode"] ?? .null, "celsius": arguments["celsius"] ?? .null]
    }
}

@Suite(.timeLimit(.minutes(1)))
struct DevServerCallsYourFunctionsTests {
    @Test func theDefaultAgentCallsAHostsOwnFunctionWithValidArgumentsAndAnswersReadably() async throws {
        try await RuntimeHarness.run(ReferenceBackend.Configuration(script: .default)) { harness in
            var configuration = harness.configuration()
            configuration.functions = [SetThermostat.self]
            try await harness.withRuntime(configuration) { runtime in
                let result = try await runtime.ask("set the kitchen thermostat to heat, room: kitchen celsius: 21")
                let call = try #require(result.toolCalls.first)
                #expect(call.functionName == "set_thermostat")
                #expect(call.status == .completed)
                #expect(call.arguments == ["room": "kitchen", "celsius": 21, "mode": "heat"])
                #expect(result.text == "Done. The set_thermostat returned:\ncelsius: 21\nmode: heat\nroom: kitchen")
            }
        }
    }
}
