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
    /// the old session back under the new session's stream and deliveries).
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
                _ = await send.value
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
                #expect(harness.backend.counters.toolResults[item.id]?.accepted == 1)
                #expect(runtime.messages.last?.text == #"Done. The get_time returned "10:42"."#)
            }
        }
    }
}
