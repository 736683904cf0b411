import Foundation
import ResolveKit
import ResolveKitTesting
import Testing

/// The backend's events and the model's arguments are not trusted: the local registration and the session's
/// allow-list decide what runs, and only with arguments that fit the schema.
@Suite(.timeLimit(.minutes(1)))
struct UntrustedEventTests {
    static func id(_ name: String) -> String { "call_\(name)_" + UUID().uuidString.prefix(8) }

    @Test func everyCallOfABatchRegisteredAsNeedingApprovalGoesToTheApproverWhateverTheEventsSay() async throws {
        let asked = AskedNames()
        let approver = ClosureApprover { request in
            await asked.record(request.calls.map(\.call.functionName))
            return .declineAll(reason: nil)
        }
        try await SecurityHarness.run { harness in
            try await withRuntime(harness.configuration(approver: approver)) { runtime in
                let (door, time, lights) = (Self.id("door"), Self.id("time"), Self.id("lights"))
                #expect(harness.injectCall(door, "lock_door", into: runtime))
                #expect(harness.injectCall(time, "get_time", into: runtime))
                #expect(harness.injectCall(lights, "set_lights", arguments: ["room": "hall", "on": true], into: runtime))
                await runtime.wait { runtime in
                    [door, time, lights].allSatisfy { id in runtime.item(withID: id)?.isFinished == true }
                }
                #expect(Set(await asked.names.flatMap { $0 }) == ["lock_door", "set_lights"])
                #expect(runtime.item(withID: door)?.status == .cancelled(reason: "User denied action"))
                #expect(runtime.item(withID: lights)?.status == .cancelled(reason: "User denied action"))
                #expect(runtime.item(withID: time)?.status == .completed)
                #expect(ExecutionLedger.shared.total(of: [door, lights].map { ToolCallID($0) }) == 0)
            }
        }
    }

    @Test func callsToUnregisteredOrSessionDisallowedFunctionsGetAnErrorResultAndNeverRun() async throws {
        let asked = AskedNames()
        let approver = ClosureApprover { request in
            await asked.record(request.calls.map(\.call.functionName))
            return .approveAll
        }
        try await SecurityHarness.run { harness in
            let configuration = harness.configuration(approver: approver, allowed: { ["get_time", "set_lights"] })
            try await withRuntime(configuration) { runtime in
                let (boom, door, unknown) = (Self.id("boom"), Self.id("door"), Self.id("unknown"))
                #expect(harness.injectCall(boom, "boom", into: runtime))
                #expect(harness.injectCall(door, "lock_door", into: runtime))
                #expect(harness.injectCall(unknown, "format_disk", into: runtime))
                await runtime.wait { runtime in
                    [boom, door, unknown].allSatisfy { id in runtime.item(withID: id)?.isFinished == true }
                }
                #expect(runtime.item(withID: boom)?.status == .failed("Function boom is not available in this session"))
                #expect(runtime.item(withID: door)?.status == .failed("Function lock_door is not available in this session"))
                #expect(runtime.item(withID: unknown)?.status == .failed("Unknown function: format_disk"))
                #expect(ExecutionLedger.shared.total(of: [boom, door, unknown].map { ToolCallID($0) }) == 0)
                #expect(await asked.names.isEmpty, "nobody is asked to approve a call that cannot run")
                // Each refusal is posted as an error result (injected calls are not pending on the server: 404).
                await runtime.wait { runtime in
                    [boom, door, unknown].allSatisfy { id in
                        runtime.executionLog.contains { $0.hasPrefix("Result of \(id) no longer awaited") }
                    }
                }
                #expect([boom, door, unknown].allSatisfy { harness.backend.counters.toolResults[$0]?.notPending == 1 })
            }
        }
    }

    static let badLightArguments: [JSONValue] = [
        ["room": "kitchen", "on": "maybe"], ["room": "kitchen"], ["on": true], ["room": ["floor": 1], "on": true],
        [1, 2], "lights on",
    ]

    @Test(arguments: badLightArguments)
    func argumentsThatBreakTheSchemaGetAnErrorResultAndNeverReachInvoke(arguments: JSONValue) async throws {
        try await SecurityHarness.run { harness in
            try await withRuntime(harness.configuration()) { runtime in
                let call = Self.id("lights")
                #expect(harness.injectCall(call, "set_lights", arguments: arguments, into: runtime))
                await runtime.wait { $0.item(withID: call)?.isFinished == true }
                guard case .failed(let message) = runtime.item(withID: call)?.status else {
                    Issue.record("not refused: \(String(describing: runtime.item(withID: call)))")
                    return
                }
                #expect(message.hasPrefix("Invalid arguments"))
                #expect(ExecutionLedger.shared.count(call) == 0)
            }
        }
    }
}

func withRuntime(_ configuration: ResolveKitConfiguration, _ body: (ResolveKitRuntime) async throws -> Void) async throws {
    let runtime = ResolveKitRuntime(configuration: configuration)
    do {
        try await runtime.start()
        try await body(runtime)
    } catch {
        await runtime.stop()
        throw error
    }
    await runtime.stop()
}

extension ResolveKitRuntime {
    func item(withID id: String) -> ToolCallChecklistItem? {
        toolCallBatches.flatMap(\.items).last { $0.id.rawValue == id }
    }
}

extension ToolCallChecklistItem {
    var isFinished: Bool { status != .running && status != .pendingApproval }
}
