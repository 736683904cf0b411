import Foundation
import ResolveKit
import ResolveKitTesting
import Testing

/// Focused reproductions of what the soak found.
@Suite(.timeLimit(.minutes(1)))
struct RecoveryRegressionTests {
    @Test func aTokenThatExpiresAgainLaterInTheSameSessionIsRefreshedAgain() async throws {
        let clock = ManualClock()
        try await RuntimeHarness.run { harness in
            try await harness.withRuntime(harness.configuration(clock: ResolveKitClock(clock))) { runtime in
                let pump = RuntimeRecoveryTests.advanceThroughReconnects(runtime, clock)
                defer { pump.cancel() }
                let sessionID = runtime.sessionID
                for round in 1...3 {
                    harness.backend.expireCapabilityTokens()
                    harness.backend.dropOpenStreams()
                    await runtime.wait { runtime in
                        runtime.executionLog.filter { $0.hasPrefix("Refreshed the capability token") }.count >= round
                    }
                    await runtime.wait { $0.connectionState == .active }
                    try await runtime.converse("what time is it")
                    #expect(runtime.messages.last?.text == #"Done. The get_time returned "10:42"."#)
                }
                #expect(runtime.sessionID == sessionID)
            }
        }
    }

    @Test func aTokenExpiringTogetherWithItsSessionLeadsToANewSessionNotABlock() async throws {
        let clock = ManualClock()
        try await RuntimeHarness.run { harness in
            try await harness.withRuntime(harness.configuration(clock: ResolveKitClock(clock))) { runtime in
                let pump = RuntimeRecoveryTests.advanceThroughReconnects(runtime, clock)
                defer { pump.cancel() }
                let oldSession = try #require(runtime.sessionID)
                harness.backend.expireCapabilityTokens()
                harness.backend.setStatus(.expired, ofSession: oldSession)
                harness.backend.dropOpenStreams()
                await runtime.wait { $0.sessionID != oldSession && $0.connectionState == .active }
                try await runtime.converse("what time is it")
                #expect(runtime.messages.last?.text == #"Done. The get_time returned "10:42"."#)
            }
        }
    }

    @Test func aTokenRefreshThatCannotReachTheBackendRunsSetupAgainInsteadOfBlocking() async throws {
        let clock = ManualClock()
        try await RuntimeHarness.run { harness in
            try await harness.withRuntime(harness.configuration(clock: ResolveKitClock(clock))) { runtime in
                let pump = RuntimeRecoveryTests.advanceThroughReconnects(runtime, clock)
                defer { pump.cancel() }
                let sessionID = runtime.sessionID
                harness.backend.expireCapabilityTokens()
                harness.backend.configuration.faults.fail(.init("POST", "/v1/sessions"), status: 503)
                harness.backend.dropOpenStreams()
                await runtime.wait { $0.executionLog.contains { $0.hasPrefix("The capability token could not be refreshed") } }
                await runtime.wait { $0.connectionState == .active }
                try await runtime.converse("what time is it")
                #expect(runtime.messages.last?.text == #"Done. The get_time returned "10:42"."#)
                #expect(runtime.sessionID == sessionID)
            }
        }
    }

    /// A token refresh started by `sendMessage` outlives its session: the session expires and setup opens a new
    /// one while the refresh is out. Its late answer must leave the new session alone (it used to end it, or put
    /// the old session back under the new session's stream and deliveries); the message goes to the new session.
    @Test func aTokenRefreshAnsweredAfterTheSessionWasReplacedLeavesTheNewSessionAlone() async throws {
        let clock = ManualClock()
        try await RuntimeHarness.run { harness in
            try await harness.withRuntime(harness.configuration(clock: ResolveKitClock(clock))) { runtime in
                let pump = RuntimeRecoveryTests.advanceThroughReconnects(runtime, clock)
                defer { pump.cancel() }
                let oldSession = try #require(runtime.sessionID)
                let faults = harness.backend.configuration.faults
                harness.backend.expireCapabilityTokens()
                faults.stall(.init("POST", "/v1/sessions"))
                let before = harness.backend.counters.requests
                // POST /messages is refused (403, expired token); the refresh it starts is held by the backend.
                let send = Task { await runtime.sendMessage("what time is it") }
                await runtime.wait { $0.executionLog.contains { $0.hasPrefix("Sending the message failed") } }
                while harness.backend.counters.requests < before + 2 { await Task.yield() }
                harness.backend.setStatus(.expired, ofSession: oldSession)
                harness.backend.dropOpenStreams()
                await runtime.wait { $0.sessionID != oldSession && $0.connectionState == .active }
                let newSession = try #require(runtime.sessionID)
                faults.releaseStalls()
                let carried = await send.value
                guard case .accepted = carried else {
                    Issue.record("the message was not carried over: \(carried)")
                    return
                }
                await runtime.wait { !$0.isTurnInProgress }
                try await runtime.converse("what time is it")
                #expect(runtime.messages.last?.text == #"Done. The get_time returned "10:42"."#)
                #expect(runtime.sessionID == newSession)
            }
        }
    }

    @Test func afterTheWatchdogReconcilesATurnHiddenByRenumberingTheNextTurnIsSeenAtOnce() async throws {
        let clock = ManualClock()
        let configuration = ReferenceBackend.Configuration(eventIDStyle: .numeric, script: TestTools.script)
        try await RuntimeHarness.run(configuration) { harness in
            try await harness.withRuntime(harness.configuration(clock: ResolveKitClock(clock))) { runtime in
                let pump = RuntimeRecoveryTests.advanceThroughReconnects(runtime, clock)
                defer { pump.cancel() }
                try await runtime.converse("what time is it")
                try await runtime.converse("what time is it again")
                harness.backend.restartEventNumbering()
                // A turn with no tool call ends on the server unseen: only the watchdog notices, from the history.
                _ = await runtime.sendMessage("hello there")
                await harness.backend.waitForIdleTurns()
                let watchdog = clock.now.advanced(by: .seconds(60))
                await clock.waitForSleeper(at: watchdog)
                clock.advance(to: watchdog)
                await runtime.wait { !$0.isTurnInProgress }
                // The stream was reopened without the cursor, so this turn's call arrives with no watchdog.
                let calls = runtime.toolCallBatches.count
                try await runtime.converse("what time is it now")
                #expect(runtime.toolCallBatches.count == calls + 1)
                let item = try #require(runtime.item("get_time"))
                #expect(ExecutionLedger.shared.count(item.id) == 1)
                #expect(harness.backend.counters.toolResults[item.id.rawValue]?.accepted == 1)
                #expect(runtime.messages.last?.text == #"Done. The get_time returned "10:42"."#)
            }
        }
    }

    /// Soak, turn 1213: a call hidden by renumbering was timed out by the server, the watchdog found the turn over
    /// in the history and reopened the stream without its cursor, and the replay brought the call: it ran for a
    /// turn nobody waited on any more, and the replayed `turn_complete` showed the answer a second time.
    @Test func aCallReplayedAfterItsTurnEndedIsNotRun() async throws {
        let clock = ManualClock()
        let configuration = ReferenceBackend.Configuration(
            eventIDStyle: .numeric, script: TestTools.script, clock: clock)
        try await RuntimeHarness.run(configuration) { harness in
            try await harness.withRuntime(harness.configuration(clock: ResolveKitClock(clock))) { runtime in
                try await runtime.converse("what time is it")
                harness.backend.restartEventNumbering()
                harness.backend.dropOpenStreams()
                _ = await runtime.sendMessage("what time is it again")
                let serverTimeout = clock.now.advanced(by: .seconds(30))
                await clock.waitForSleeper(at: serverTimeout)
                clock.advance(to: serverTimeout)
                await harness.backend.waitForIdleTurns()
                #expect(harness.backend.counters.toolCallsTimedOut == 1)
                let watchdog = serverTimeout.advanced(by: .seconds(30))
                await clock.waitForSleeper(at: watchdog)
                clock.advance(to: watchdog)
                await runtime.wait { $0.executionLog.contains("Reconnecting without a cursor") }
                // The next turn rides the same stream, so the replay is fully handled once it ends.
                try await runtime.converse("and now, what time is it")
                #expect(runtime.executionLog.contains { $0.hasSuffix("its turn already ended") })
                #expect(harness.backend.counters.toolResults.count == 2)
                let ran = runtime.toolCallBatches.flatMap(\.items).map(\.id)
                #expect(ran.count == 2)
                #expect(ran.allSatisfy { ExecutionLedger.shared.count($0) == 1 })
                let answers = runtime.messages.filter { $0.role == .assistant }.map(\.text)
                #expect(answers.filter { $0.contains("timed out") }.count == 1)
                #expect(answers.count == 4)
            }
        }
    }
}
