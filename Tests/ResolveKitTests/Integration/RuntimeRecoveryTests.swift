import Foundation
import ResolveKit
import ResolveKitTesting
import Testing

@Suite(.timeLimit(.minutes(1)))
struct RuntimeRecoveryTests {
    /// Lets the stream's reconnect backoff pass on the manual clock whenever the runtime waits to reconnect.
    static func advanceThroughReconnects(_ runtime: ResolveKitRuntime, _ clock: ManualClock) -> Task<Void, Never> {
        let events = runtime.events
        return Task {
            for await event in events {
                if case .connectionStateChanged(.reconnecting(_, let delay, _)) = event {
                    await clock.waitForSleeper(at: clock.now.advanced(by: delay))
                    clock.advance(by: delay)
                }
            }
        }
    }

    @Test(arguments: [FaultPlan.StreamDrop.afterEvents(1), .atByteOffset(200)])
    func aStreamDroppedMidTurnResumesWithoutRunningAnythingTwice(drop: FaultPlan.StreamDrop) async throws {
        let clock = ManualClock()
        try await RuntimeHarness.run { harness in
            harness.backend.configuration.faults.dropStream(drop)
            try await harness.withRuntime(harness.configuration(clock: ResolveKitClock(clock))) { runtime in
                let pump = Self.advanceThroughReconnects(runtime, clock)
                defer { pump.cancel() }
                try await runtime.converse("what time is it")
                let item = try #require(runtime.item("get_time"))
                #expect(item.status == .completed)
                #expect(ExecutionLedger.shared.count(item.id) == 1)
                #expect(harness.backend.counters.toolResults[item.id.rawValue] == .init(accepted: 1))
                #expect(runtime.messages.last?.text == #"Done. The get_time returned "10:42"."#)
                #expect(harness.backend.counters.streamConnections >= 2)
            }
        }
    }

    @Test func aRestartedBackendThatRenumbersEventsIsCaughtByTheWatchdog() async throws {
        let clock = ManualClock()
        let backendConfiguration = ReferenceBackend.Configuration(eventIDStyle: .numeric, script: TestTools.script)
        try await RuntimeHarness.run(backendConfiguration) { harness in
            try await harness.withRuntime(harness.configuration(clock: ResolveKitClock(clock))) { runtime in
                let pump = Self.advanceThroughReconnects(runtime, clock)
                defer { pump.cancel() }
                try await runtime.converse("what time is it")
                try await runtime.converse("what time is it again")
                // The backend "restarts": ids start at 1 again, below the runtime's cursor, and the stream drops.
                harness.backend.restartEventNumbering()
                harness.backend.dropOpenStreams()
                let sent = clock.now
                _ = await runtime.sendMessage("time once more")
                // The turn watchdog fires 60 s after the turn's last activity, which is at `sent` or later: the pump
                // moves the clock through the reconnect's backoff meanwhile, and a check that comes before 60 s of
                // quiet arms the next one. So move through the timers in that window, not to one exact instant,
                // until the turn ends (the idle watchdog is an hour out, backoffs are shorter than 30 s).
                let window = sent.advanced(by: .seconds(60))...sent.advanced(by: .seconds(90))
                while runtime.isTurnInProgress {
                    await withTaskGroup(of: Void.self) { group in
                        group.addTask { await runtime.wait { !$0.isTurnInProgress } }
                        group.addTask { await clock.waitForSleepers { $0.contains(where: window.contains) } }
                        await group.next()
                        group.cancelAll()
                    }
                    if let watchdog = clock.pendingDeadlines.first(where: window.contains) { clock.advance(to: watchdog) }
                }
                #expect(runtime.messages.last?.role == .assistant)
                let calls = runtime.toolCallBatches.flatMap(\.items).map(\.id)
                #expect(calls.count == 3)
                #expect(calls.allSatisfy { ExecutionLedger.shared.count($0) == 1 })
                #expect(runtime.messages.filter { $0.role == .assistant }.count == 4)
            }
        }
    }

    @Test func anExpiredCapabilityTokenIsRefreshedByRecreatingTheSession() async throws {
        let clock = ManualClock()
        try await RuntimeHarness.run { harness in
            try await harness.withRuntime(harness.configuration(clock: ResolveKitClock(clock))) { runtime in
                let pump = Self.advanceThroughReconnects(runtime, clock)
                defer { pump.cancel() }
                let sessionID = runtime.sessionID
                harness.backend.expireCapabilityTokens()
                harness.backend.dropOpenStreams()
                try await runtime.converse("what time is it")
                #expect(runtime.sessionID == sessionID)
                #expect(runtime.executionLog.contains { $0.hasPrefix("Refreshed the capability token") })
                #expect(runtime.messages.last?.text == #"Done. The get_time returned "10:42"."#)
                #expect(!runtime.executionLog.joined().contains("eyJ"))
            }
        }
    }

    @Test func theTokenIsRefreshedAMinuteBeforeItExpires() async throws {
        let clock = ManualClock()
        let backendConfiguration = ReferenceBackend.Configuration(capabilityTokenTTL: .seconds(90), script: TestTools.script)
        try await RuntimeHarness.run(backendConfiguration) { harness in
            try await harness.withRuntime(harness.configuration(clock: ResolveKitClock(clock))) { runtime in
                // Expiry in 90 s: the refresh is due in about 30 s.
                await clock.waitForSleepers { deadlines in deadlines.contains { $0.offset > .seconds(25) && $0.offset <= .seconds(30) } }
                clock.advance(by: .seconds(30))
                await runtime.wait { $0.executionLog.contains { $0.hasPrefix("Refreshed the capability token") } }
                try await runtime.converse("what time is it")
                #expect(runtime.messages.last?.role == .assistant, "\(runtime.messages) \(runtime.executionLog)")
            }
        }
    }

    @Test func anExpiredSessionIsReplacedAndTheUserIsTold() async throws {
        let clock = ManualClock()
        try await RuntimeHarness.run { harness in
            try await harness.withRuntime(harness.configuration(clock: ResolveKitClock(clock))) { runtime in
                let pump = Self.advanceThroughReconnects(runtime, clock)
                defer { pump.cancel() }
                let oldSession = try #require(runtime.sessionID)
                #expect(harness.backend.setStatus(.expired, ofSession: oldSession))
                harness.backend.dropOpenStreams()
                await runtime.wait { $0.sessionID != oldSession && $0.connectionState == .active }
                #expect(runtime.messages.contains { $0.role == .system && $0.text.contains("a new one started") })
                try await runtime.converse("what time is it")
                #expect(runtime.messages.last?.text == #"Done. The get_time returned "10:42"."#)
            }
        }
    }

    @Test func anEscalatedSessionShowsTheHandOffAndHumanReplies() async throws {
        try await RuntimeHarness.run { harness in
            try await harness.withRuntime(harness.configuration()) { runtime in
                let sessionID = try #require(runtime.sessionID)
                #expect(harness.backend.takeOverSession(sessionID, reason: "An agent took over"))
                #expect(harness.backend.sendHumanMessage("Hi, this is Ana.", toSession: sessionID))
                await runtime.wait { $0.messages.contains { $0.role == .humanAgent && $0.text == "Hi, this is Ana." } }
                #expect(runtime.messages.contains { $0.role == .system && $0.text.contains("handed off to a person") })
            }
        }
    }

    /// After a hand-off the session refuses messages (410): the next question is answered in a new session, not
    /// thrown back to the caller.
    @Test func aQuestionAfterAHandOffIsAnsweredInANewSession() async throws {
        try await RuntimeHarness.run { harness in
            try await harness.withRuntime(harness.configuration()) { runtime in
                let sessionID = try #require(runtime.sessionID)
                #expect(harness.backend.takeOverSession(sessionID))
                await runtime.wait { $0.messages.contains { $0.text.contains("handed off to a person") } }
                let answer = try await runtime.ask("what time is it", timeout: .seconds(30))
                #expect(answer.text == #"Done. The get_time returned "10:42"."#)
                #expect(runtime.sessionID != sessionID)
            }
        }
    }

    @Test func aTurnWithNoTerminalEventIsReconciledFromTheHistory() async throws {
        let clock = ManualClock()
        try await RuntimeHarness.run { harness in
            try await harness.withRuntime(harness.configuration(clock: ResolveKitClock(clock))) { runtime in
                _ = await runtime.sendMessage("stay silent")
                await runtime.wait { $0.isTurnInProgress }
                await harness.backend.waitForIdleTurns()
                // No event ends this turn. The watchdog checks the history after a silent period (60 s) and,
                // finding no answer, reopens the stream without the cursor; still silent a period later, the turn
                // is lost. Its sleep until the second check shows the first is done.
                let start = clock.now
                for period in 1...2 {
                    let check = start.advanced(by: .seconds(60 * period))
                    await clock.waitForSleeper(at: check)
                    clock.advance(to: check)
                }
                await runtime.wait { !$0.isTurnInProgress }
                #expect(runtime.messages.last?.text == "The assistant did not answer.")
            }
        }
    }
}
