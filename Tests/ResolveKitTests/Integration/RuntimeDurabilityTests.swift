import Foundation
import ResolveKit
import ResolveKitTesting
import Testing

@Suite(.timeLimit(.minutes(1)))
struct RuntimeDurabilityTests {
    @Test func aResultPendingAtAProcessRestartIsDeliveredExactlyOnceByTheNextProcess() async throws {
        try await RuntimeHarness.run { harness in
            let deviceID = "device-restart-\(UUID().uuidString)"
            let clock = ManualClock()
            let faults = harness.backend.configuration.faults
            faults.fail(.init("POST", "/v1/sessions/*/tool-results"), status: 503, times: 1000)
            let first = ResolveKitRuntime(
                configuration: harness.configuration(clock: ResolveKitClock(clock), deviceID: deviceID, persistent: true))
            try await first.start()
            _ = await first.sendMessage("what time is it")
            await first.wait { $0.item("get_time")?.status == .completed }
            await first.wait { $0.executionLog.contains { $0.hasPrefix("Posting the result") } }
            let callID = try #require(first.item("get_time")?.id)
            let sessionID = first.sessionID
            await first.stop()

            faults.reset()
            try await harness.withRuntime(harness.configuration(deviceID: deviceID, persistent: true)) { second in
                #expect(second.sessionID == sessionID)
                await second.wait { !$0.isTurnInProgress && $0.messages.last?.role == .assistant }
                await second.wait { _ in harness.backend.counters.toolResults[callID.rawValue]?.accepted == 1 }
                #expect(ExecutionLedger.shared.count(callID) == 1)
                #expect(harness.backend.counters.toolResults[callID.rawValue]?.duplicates == 0)
                #expect(second.messages.last?.text == #"Done. The get_time returned "10:42"."#)
            }
        }
    }

    @Test func aReusedSessionWithoutAStoredCursorDoesNotRunOldCallsAgain() async throws {
        try await RuntimeHarness.run { harness in
            let deviceID = "device-replay-\(UUID().uuidString)"
            try await harness.withRuntime(harness.configuration(deviceID: deviceID)) { runtime in
                try await runtime.converse("what time is it")
            }
            // A fresh process with no state: same device, so the session is reused and the stream replays it all.
            try await harness.withRuntime(harness.configuration(deviceID: deviceID)) { runtime in
                #expect(runtime.messages.map(\.role) == [.assistant, .user, .assistant])
                try await runtime.converse("lights on")
                #expect(runtime.toolCallBatches.flatMap(\.items).map(\.functionName) == ["set_lights"])
                #expect(runtime.messages.filter { $0.role == .assistant }.count == 3)
            }
        }
    }

    @Test func twentyRuntimesShareOneProcessAndOneHTTPClient() async throws {
        try await RuntimeHarness.run { harness in
            try await withThrowingTaskGroup(of: String?.self) { group in
                for index in 0..<20 {
                    group.addTask {
                        var answer: String?
                        try await harness.withRuntime(harness.configuration(deviceID: "device-many-\(index)")) { runtime in
                            try await runtime.converse("what time is it, runtime \(index)?")
                            answer = runtime.messages.last?.text
                        }
                        return answer
                    }
                }
                var answers: [String?] = []
                for try await answer in group { answers.append(answer) }
                #expect(answers.count == 20)
                #expect(answers.allSatisfy { $0 == #"Done. The get_time returned "10:42"."# })
            }
            #expect(harness.backend.counters.turnsStarted == 20)
        }
    }
}

@Suite(.timeLimit(.minutes(1)))
struct RuntimeDrainTests {
    /// SIGTERM while a call waits for a person: the drain withdraws it at once instead of waiting out its timeout,
    /// posts its error result and records the acknowledgement, so the next process has nothing to post again.
    @Test func drainingWithdrawsACallWaitingForApprovalAndSettlesItsResult() async throws {
        let clock = ManualClock()
        try await RuntimeHarness.run(.init(script: TestTools.script, clock: ManualClock())) { harness in
            let configuration = harness.configuration(
                approver: ToolApprovals.Deferred(), clock: ResolveKitClock(clock), persistent: true)
            let runtime = ResolveKitRuntime(configuration: configuration)
            try await runtime.start()
            _ = await runtime.sendMessage("lights on")
            await clock.waitForSleeper(at: .init(offset: .milliseconds(250)))
            clock.advance(by: .milliseconds(250))
            await runtime.wait { $0.item("set_lights")?.status == .pendingApproval }
            let callID = try #require(runtime.item("set_lights")?.id)
            // The manual clock never moves: a drain that waited for its timeout would never return.
            await runtime.drain(timeout: .seconds(30))
            #expect(runtime.item("set_lights")?.status
                == .cancelled(reason: "The service is shutting down; try again later"))
            #expect(ExecutionLedger.shared.count(callID) == 0)
            #expect(harness.backend.counters.toolResults[callID.rawValue]?.accepted == 1)
            let journal = try String(contentsOfFile: harness.stateDirectory + "/journal.jsonl", encoding: .utf8)
            let lastLine = try #require(journal.split(separator: "\n").last { $0.contains(callID.rawValue) })
            #expect(lastLine.contains(#""status":"settled""#))
        }
    }

    /// A service that runs the runtime in a task of its own (`run()`) ends it with `stop()` or `drain()`: `run()`
    /// returns, and the state folder is free for the next runtime.
    @Test(arguments: ["stop", "drain"])
    func stopAndDrainEndARunInTheHostsOwnTaskAndUnlockItsFolder(_ ending: String) async throws {
        try await RuntimeHarness.run { harness in
            let runtime = ResolveKitRuntime(configuration: harness.configuration(persistent: true))
            var events = runtime.events.makeAsyncIterator()
            let runner = Task { try await runtime.run() }
            while let event = await events.next() {
                if case .connectionStateChanged(.active) = event { break }
            }
            if ending == "stop" { await runtime.stop() } else { await runtime.drain(timeout: .seconds(5)) }
            try await runner.value
            try await harness.withRuntime(harness.configuration(persistent: true)) { second in
                #expect(second.connectionState == .active)
            }
        }
    }

    @Test func drainingRefusesNewCallsLetsRunningOnesFinishAndFlushesResults() async throws {
        let clock = ManualClock()
        // The backend waits on a clock of its own that never moves: its 5 s deadline for the call is real time
        // otherwise, which a machine busy with the whole suite can use up before the runtime's result arrives.
        try await RuntimeHarness.run(.init(script: TestTools.script, clock: ManualClock())) { harness in
            let runtime = ResolveKitRuntime(configuration: harness.configuration(clock: ResolveKitClock(clock)))
            try await runtime.start()
            let asked = Task { try await runtime.ask("slow") }
            await runtime.wait { $0.item("slow")?.status == .running }
            let drained = Task { await runtime.drain(timeout: .seconds(30)) }
            // While draining, a new call arrives: it is answered with an error, not run.
            let payload: JSONValue = [
                "call_id": "call_during_drain", "function_name": "get_time", "arguments": [:],
                "timeout_seconds": 30, "human_description": "x", "requires_approval": false,
            ]
            await runtime.wait { $0.executionLog.contains { $0.hasPrefix("Draining") } }
            #expect(harness.backend.injectEvent(type: "tool_call_request", payload: payload, intoSession: runtime.sessionID!))
            await runtime.wait { $0.item("get_time")?.status == .cancelled(reason: "The service is shutting down; try again later") }
            #expect(ExecutionLedger.shared.count("call_during_drain") == 0)
            // The running call still finishes (here: times out on the manual clock) and its result is posted.
            await clock.waitForSleeper(at: .init(offset: .milliseconds(4500)))
            clock.advance(by: .seconds(5))
            await drained.value
            let slow = try #require(runtime.toolCallBatches.flatMap(\.items).first { $0.functionName == "slow" })
            #expect(harness.backend.counters.toolResults[slow.id.rawValue]?.accepted == 1)
            #expect(runtime.connectionState == .idle)
            // The question under way got its answer before the runtime stopped.
            #expect(try await asked.value.text == "Slow done.")
        }
    }
}
