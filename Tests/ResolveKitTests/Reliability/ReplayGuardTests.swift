import Foundation
import ResolveKit
import ResolveKitTesting
import Synchronization
import Testing

@Suite(.timeLimit(.minutes(1)))
struct ReplayGuardTests {
    /// The backend's wall clock, moved on by the test.
    final class WallClock: Sendable {
        private let offset = Mutex<TimeInterval>(0)
        func now() -> Date { Date().addingTimeInterval(offset.withLock { $0 }) }
        func advance(by seconds: TimeInterval) { offset.withLock { $0 += seconds } }
    }

    @Test func aReplayWithoutCursorDoesNotRunAnOldCallTheJournalNoLongerHolds() async throws {
        let clock = ManualClock()
        let wall = WallClock()
        let backendConfiguration = ReferenceBackend.Configuration(script: TestTools.script, now: { wall.now() })
        try await RuntimeHarness.run(backendConfiguration) { harness in
            let deviceID = "device-replay-guard-\(UUID().uuidString)"
            let configuration = harness.configuration(clock: ResolveKitClock(clock), deviceID: deviceID, persistent: true)
            var first: ToolCallID?
            try await harness.withRuntime(configuration) { runtime in
                try await runtime.converse("what time is it")
                first = runtime.item("get_time")?.id
            }
            let old = try #require(first)
            // The journal forgets the call, as it does once 4096 newer calls have pushed it out.
            try FileManager.default.removeItem(atPath: harness.stateDirectory + "/journal.jsonl")
            wall.advance(by: 120)
            try await harness.withRuntime(configuration) { runtime in
                try await runtime.converse("what time is it again")
                // A turn that ends with no event: the watchdog reopens the stream without its cursor, and the
                // server replays the whole session.
                _ = await runtime.sendMessage("stay silent")
                await harness.backend.waitForIdleTurns()
                let watchdog = clock.now.advanced(by: .seconds(60))
                await clock.waitForSleeper(at: watchdog)
                clock.advance(to: watchdog)
                await runtime.wait { runtime in
                    runtime.executionLog.contains { $0.hasPrefix("Ignored replayed call \(old)") || $0.hasPrefix("Call \(old)") }
                }
                #expect(ExecutionLedger.shared.count(old) == 1)
            }
        }
    }
}
