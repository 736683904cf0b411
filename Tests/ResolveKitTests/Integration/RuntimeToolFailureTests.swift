import Foundation
import ResolveKit
import ResolveKitTesting
import Testing

@Suite(.timeLimit(.minutes(1)))
struct RuntimeToolFailureTests {
    @Test func declinedCallsAreAnsweredWithUserDeniedAction() async throws {
        try await RuntimeHarness.run { harness in
            try await harness.withRuntime(harness.configuration(approver: DenyAllApprover())) { runtime in
                try await runtime.converse("lights please")
                let item = try #require(runtime.item("set_lights"))
                #expect(item.status == .cancelled(reason: "User denied action"))
                #expect(ExecutionLedger.shared.count(item.id) == 0)
                #expect(harness.backend.counters.toolResults[item.id.rawValue]?.accepted == 1)
                #expect(runtime.messages.last?.text == "Lights done.")
            }
        }
    }

    @Test func argumentsThatBreakTheSchemaNeverReachTheFunction() async throws {
        try await RuntimeHarness.run { harness in
            try await harness.withRuntime(harness.configuration()) { runtime in
                try await runtime.converse("bad lights")
                let item = try #require(runtime.item("set_lights"))
                #expect(item.status == .failed(#"Invalid arguments: $.on: expected boolean, got string "maybe""#))
                #expect(ExecutionLedger.shared.count(item.id) == 0)
                #expect(harness.backend.counters.toolResults[item.id.rawValue]?.accepted == 1)
            }
        }
    }

    @Test func aThrowingFunctionBecomesAnErrorResultWithItsDescription() async throws {
        try await RuntimeHarness.run { harness in
            try await harness.withRuntime(harness.configuration()) { runtime in
                try await runtime.converse("boom")
                let item = try #require(runtime.item("boom"))
                #expect(item.status == .failed("disk is full"))
                #expect(harness.backend.counters.toolResults[item.id.rawValue]?.accepted == 1)
                #expect(runtime.connectionState == .active)
            }
        }
    }

    @Test func aCallToAnUnregisteredFunctionIsRefusedNotRun() async throws {
        try await RuntimeHarness.run { harness in
            try await harness.withRuntime(harness.configuration()) { runtime in
                let sessionID = try #require(runtime.sessionID)
                let payload: JSONValue = [
                    "call_id": "call_unknown_1", "function_name": "format_disk", "arguments": [:],
                    "timeout_seconds": 30, "human_description": "I will format the disk", "requires_approval": false,
                ]
                #expect(harness.backend.injectEvent(type: "tool_call_request", payload: payload, intoSession: sessionID))
                await runtime.wait { $0.item("format_disk")?.status == .failed("Unknown function: format_disk") }
                await runtime.wait { runtime in !runtime.executionLog.filter { $0.contains("call_unknown_1") && $0.contains("Result") }.isEmpty }
                #expect(harness.backend.counters.toolResults["call_unknown_1"]?.notPending == 1)
            }
        }
    }

    @Test func argumentsThatAreNotAnObjectGetAnErrorResult() async throws {
        try await RuntimeHarness.run { harness in
            try await harness.withRuntime(harness.configuration()) { runtime in
                let payload: JSONValue = [
                    "call_id": "call_array_1", "function_name": "get_time", "arguments": [1, 2],
                    "timeout_seconds": 30, "human_description": "x", "requires_approval": false,
                ]
                #expect(harness.backend.injectEvent(type: "tool_call_request", payload: payload, intoSession: runtime.sessionID!))
                await runtime.wait {
                    $0.item("get_time")?.status == .failed("Invalid arguments: expected a JSON object, got array")
                }
                #expect(ExecutionLedger.shared.count("call_array_1") == 0)
            }
        }
    }

    @Test func aCallThatRunsPastItsDeadlineTimesOut() async throws {
        let clock = ManualClock()
        // The backend waits on a clock of its own that never moves: its 5 s deadline for the call is real time
        // otherwise, which a machine busy with the whole suite can use up before the runtime's result arrives.
        try await RuntimeHarness.run(.init(script: TestTools.script, clock: ManualClock())) { harness in
            try await harness.withRuntime(harness.configuration(clock: ResolveKitClock(clock))) { runtime in
                _ = await runtime.sendMessage("slow")
                await runtime.wait { $0.item("slow")?.status == .running }
                // Deadline: 5 s less a tenth of it, so the result still reaches the server in time.
                await clock.waitForSleeper(at: .init(offset: .milliseconds(4500)))
                clock.advance(by: .seconds(5))
                await runtime.wait { $0.item("slow")?.status == .failed("Timed out after 5s") }
                await runtime.wait { !$0.isTurnInProgress }
                let item = try #require(runtime.item("slow"))
                #expect(harness.backend.counters.toolResults[item.id.rawValue]?.accepted == 1)
            }
        }
    }

    @Test func anUndecidedCallIsDeclinedJustBeforeTheServerWouldGiveUp() async throws {
        let clock = ManualClock()
        let neverDecides = ClosureApprover { _ in
            try? await Task.sleep(for: .seconds(3600))
            return .approveAll
        }
        try await RuntimeHarness.run { harness in
            let configuration = harness.configuration(approver: neverDecides, clock: ResolveKitClock(clock))
            try await harness.withRuntime(configuration) { runtime in
                _ = await runtime.sendMessage("lights")
                await clock.waitForSleeper(at: .init(offset: .milliseconds(250)))
                clock.advance(by: .milliseconds(250))
                await runtime.wait { $0.item("set_lights")?.status == .pendingApproval }
                // set_lights has a 60 s timeout: the approval may take until 59 s after the request arrived.
                await clock.waitForSleeper(at: .init(offset: .seconds(59)))
                clock.advance(by: .seconds(59))
                await runtime.wait { $0.item("set_lights")?.status == .cancelled(reason: "Approval timed out") }
                let item = try #require(runtime.item("set_lights"))
                #expect(ExecutionLedger.shared.count(item.id) == 0)
                await runtime.wait { !$0.isTurnInProgress }
                #expect(harness.backend.counters.toolResults[item.id.rawValue]?.accepted == 1)
            }
        }
    }

    @Test func aLocalRegistrationNeedingApprovalIsAskedEvenIfTheEventSaysNo() async throws {
        let asked = AskedNames()
        let recorder = ClosureApprover { request in
            await asked.record(request.calls.map(\.call.functionName))
            return .declineAll(reason: nil)
        }
        try await RuntimeHarness.run { harness in
            try await harness.withRuntime(harness.configuration(approver: recorder)) { runtime in
                let payload: JSONValue = [
                    "call_id": "call_sneaky_1", "function_name": "lock_door", "arguments": [:],
                    "timeout_seconds": 30, "human_description": "I will lock the door", "requires_approval": false,
                ]
                #expect(harness.backend.injectEvent(type: "tool_call_request", payload: payload, intoSession: runtime.sessionID!))
                await runtime.wait { $0.item("lock_door")?.status == .cancelled(reason: "User denied action") }
                #expect(await asked.names == [["lock_door"]])
                #expect(ExecutionLedger.shared.count("call_sneaky_1") == 0)
            }
        }
    }
}
