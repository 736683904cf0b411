import Foundation
import ResolveKitTesting
import Testing

/// `rk-service` with several users at once: each has a session of their own, answered concurrently, in order.
@Suite(.timeLimit(.minutes(1)))
struct ServiceUsersTests {
    @Test func usersAreServedAtOnceEachInTheirOwnSessionAndRepliesNameTheUser() async throws {
        try await ServiceHarness.run { harness in
            let service = try harness.launch(["--max-sessions", "8"])
            // Alice's turn is held at the backend; Bob and Carol must not wait for it.
            harness.backend.configuration.faults.stall(.init("POST", "/v1/sessions/*/messages"))
            service.send(#"{"id": "a1", "user": "alice", "message": "what time is it"}"#)
            await harness.backend.configuration.faults.waitForStalledRequests(count: 1)
            service.send(#"{"id": "b1", "user": "bob", "message": "what time is it"}"#)
            service.send(#"{"id": "c1", "user": "carol", "message": "how much free space is on disk"}"#)
            let bob = try await service.answer(id: "b1")
            let carol = try await service.answer(id: "c1")
            #expect(bob["status"] as? String == "ok" && bob["user"] as? String == "bob")
            #expect(carol["status"] as? String == "ok" && carol["user"] as? String == "carol")
            #expect(!service.stdoutLines.contains { $0.contains(#""id":"a1""#) })

            harness.backend.configuration.faults.releaseStalls()
            let alice = try await service.answer(id: "a1")
            #expect(alice["status"] as? String == "ok" && alice["user"] as? String == "alice")
            #expect((alice["answer"] as? String)?.contains("The get_local_time returned") == true)

            var sessions: [String: String] = [:]
            for user in ["alice", "bob", "carol"] {
                service.send(#"{"id": "s-\#(user)", "user": "\#(user)", "command": "status"}"#)
                sessions[user] = try await service.answer(id: "s-\(user)")["session_id"] as? String
            }
            #expect(Set(sessions.values.compactMap { $0 }).count == 3)
            service.closeInput()
            #expect(await service.exitStatus() == 0)
        }
    }

    @Test func oneUsersRequestsAreAnsweredInTheOrderTheyArrived() async throws {
        try await ServiceHarness.run { harness in
            let service = try harness.launch()
            for index in 1...4 {
                service.send(#"{"id": "\#(index)", "user": "dana", "message": "what time is it"}"#)
            }
            _ = try await service.answer(id: "4")
            let order = service.stdoutLines.compactMap { line -> String? in
                guard let data = line.data(using: .utf8),
                    let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
                else { return nil }
                return object["id"] as? String
            }
            #expect(order == ["1", "2", "3", "4"])
            #expect(harness.backend.counters.turnsStarted == 4)
            service.closeInput()
            #expect(await service.exitStatus() == 0)
        }
    }
}
