import Foundation
import ResolveKit
import ResolveKitTesting
import Testing

/// A turn the backend never ends: the caller gets `turnLost` instead of waiting, and a session whose lost turn
/// still holds the server's lock is replaced so the next question is answered.
@Suite(.timeLimit(.minutes(1)))
struct LostTurnTests {
    @Test func aTurnWithNoEventAndNoAnswerIsLostAfterTwoWatchdogPeriods() async throws {
        let clock = ManualClock()
        try await RuntimeHarness.run { harness in
            try await harness.withRuntime(harness.configuration(clock: ResolveKitClock(clock))) { runtime in
                let oldSession = try #require(runtime.sessionID)
                let asking = Task { try await runtime.ask("please stay silent") }
                await runtime.wait { $0.activeTurnID != nil }
                await harness.backend.waitForIdleTurns()
                for check in 1...2 {
                    let due = ManualClock.Instant(offset: .seconds(60 * check))
                    await clock.waitForSleeper(at: due)
                    clock.advance(to: due)
                }
                do {
                    _ = try await asking.value
                    Issue.record("a turn with no answer was answered")
                } catch let error as ResolveKitError {
                    #expect(error.code == .turnLost)
                    #expect(error.isRetryable)
                    #expect(error.turnSoFar?.ending == .unfinished)
                }
                #expect(!runtime.isTurnInProgress)

                // The server still holds the lost turn's lock: the next message gets 409 once, and goes to a new
                // session instead of waiting out the lock.
                harness.backend.configuration.faults.fail(.init("POST", "/v1/sessions/*/messages"), status: 409)
                let result = try await runtime.ask("what time is it")
                #expect(result.text == #"Done. The get_time returned "10:42"."#)
                #expect(runtime.sessionID != oldSession)
                let notices = runtime.messages.filter { $0.role == .system }.map(\.text)
                #expect(notices.filter { $0.contains("new conversation started") }.count == 1)
            }
        }
    }

    @Test func aBackendRestartedMidTurnEndsTheTurnAndTheNextMessageIsAnsweredInANewSession() async throws {
        let clock = ManualClock()
        let configuration = ReferenceBackend.Configuration(script: TestTools.script, clock: clock)
        configuration.faults.restartAfterNextToolCalls(lockHeldFor: .seconds(600))
        try await RuntimeHarness.run(configuration) { harness in
            try await harness.withRuntime(harness.configuration(clock: ResolveKitClock(clock))) { runtime in
                let oldSession = try #require(runtime.sessionID)
                let asking = Task { try await runtime.ask("what time is it") }
                // The call emitted before the restart still runs, and its result is posted once.
                await runtime.wait { $0.item("get_time")?.status == .completed }
                for check in 1...2 {
                    let due = ManualClock.Instant(offset: .seconds(60 * check))
                    await clock.waitForSleeper(at: due)
                    clock.advance(to: due)
                }
                do {
                    _ = try await asking.value
                    Issue.record("a turn lost to a restart was answered")
                } catch let error as ResolveKitError {
                    #expect(error.code == .turnLost)
                    #expect(error.turnSoFar?.toolCalls.map(\.functionName) == ["get_time"])
                }
                // The lock is held for 600 s; the next question goes to a new session at once.
                let result = try await runtime.ask("what time is it now")
                #expect(result.text == #"Done. The get_time returned "10:42"."#)
                #expect(runtime.sessionID != oldSession)
                #expect(harness.backend.counters.turnsLostToRestarts == 1)
                #expect(harness.backend.counters.toolResults.values.map(\.notPending).reduce(0, +) == 1)
                let item = try #require(runtime.item("get_time"))
                #expect(ExecutionLedger.shared.count(item.id) == 1)
            }
        }
    }
}
