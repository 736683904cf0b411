import Foundation
import ResolveKitTesting
import Testing

/// Exactly-once across processes rests on one owner per state folder: shown with real processes.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct ServiceStateLockTests {
    @Test func aSecondProcessOnTheSameStateFolderExitsAtOnceNamingTheFirst() async throws {
        try await ServiceHarness.run { harness in
            let first = try harness.launch()
            first.send(#"{"id": "1", "command": "status"}"#)
            _ = try await first.answer(id: "1")
            let second = try harness.launch()
            // A local problem, not an unavailable backend: its own exit code, said at error level.
            #expect(await second.exitStatus(timeout: .seconds(20)) == 73)
            #expect(second.stderr.contains("held by process \(first.pid)"))
            let line = second.stderr.split(separator: "\n").first { $0.contains("code=state_locked") }
            #expect(line?.contains(#" level=error label=rk-service msg="cannot use the state folder""#) == true)
            #expect(line?.contains("flag=--state-dir") == true)
            // The first one still serves, and ran its one turn alone.
            first.send(#"{"id": "2", "message": "what time is it"}"#)
            #expect(try await first.answer(id: "2")["status"] as? String == "ok")
            #expect(harness.backend.counters.toolResults.values.map(\.accepted).reduce(0, +) == 1)
            first.signal(SIGTERM)
            #expect(await first.exitStatus() == 0)
            // Its lock died with it: the next process takes the folder.
            let third = try harness.launch()
            third.send(#"{"id": "3", "command": "status"}"#)
            #expect(try await third.answer(id: "3")["status"] as? String == "ok")
            third.signal(SIGKILL)
            _ = await third.exitStatus()
            let fourth = try harness.launch()
            fourth.send(#"{"id": "4", "command": "status"}"#)
            #expect(try await fourth.answer(id: "4")["status"] as? String == "ok")
            fourth.signal(SIGTERM)
            _ = await fourth.exitStatus()
        }
    }

    /// A session closed for sitting idle lets its key's folder go, not the service's folder: a process started
    /// later on it is still refused, and the first one goes on answering.
    @Test func aSecondProcessIsRefusedAfterTheFirstClosedItsIdleSession() async throws {
        try await ServiceHarness.run { harness in
            let first = try harness.launch(["--idle-close", "1"])
            first.send(#"{"id": "1", "command": "status"}"#)
            _ = try await first.answer(id: "1")
            let clock = ContinuousClock()
            let deadline = clock.now.advanced(by: .seconds(15))
            func streamOpen() -> Bool {
                let spans = harness.backend.sessionIDs.flatMap(harness.backend.streamSpans(ofSession:))
                return spans.contains { $0.endedAt == nil }
            }
            while streamOpen(), clock.now < deadline { try await Task.sleep(for: .milliseconds(50)) }
            #expect(!streamOpen(), "the idle session did not close")
            let second = try harness.launch()
            #expect(await second.exitStatus(timeout: .seconds(20)) == 73)
            #expect(second.stderr.contains("held by process \(first.pid)"))
            first.send(#"{"id": "2", "message": "what time is it"}"#)
            #expect(try await first.answer(id: "2")["status"] as? String == "ok")
            first.signal(SIGTERM)
            #expect(await first.exitStatus() == 0)
        }
    }
}
