import Foundation
import Glibc
import ResolveKitTesting
import Testing

/// `rk-service` replicas sharing users through one `redis-server`, as real processes, against the reference
/// backend: users spread over replicas, and a replica killed in the middle of a call, in the middle of a result's
/// post or while idle, one frozen past its lease and let go again, and Redis itself restarted from its AOF. In each
/// case every user's next question is answered, no call runs twice, no result is lost or posted twice, and a call
/// cut off is reported interrupted once.
@Suite(
    .serialized,
    .enabled(if: ExternalProgram.redisServer.shouldRun, Comment(rawValue: ExternalProgram.redisServer.skipNote)),
    .timeLimit(.minutes(5)))
struct ReplicaProcessTests {
    static let toolResults = FaultPlan.Endpoint("POST", "/v1/sessions/*/tool-results")
    /// `list_top_processes` samples the CPU for half a second: a call a replica can die in the middle of.
    static let slowQuestion = "list the top processes"

    @Test func usersSpreadOverThreeReplicasAreEachServedByTheReplicaHoldingTheirLease() async throws {
        try await ReplicaCluster.run { cluster in
            let names = ["a", "b", "c"]
            for name in names { try await cluster.launch(name) }
            let users = (1...6).map { "user-\($0)" }
            var owners: [String: String] = [:]
            for (index, user) in users.enumerated() {
                let (answer, by) = try await cluster.ask(user, "what time is it", first: names[index % 3])
                #expect(answer["status"] as? String == "ok", "\(answer)")
                owners[user] = by
            }
            #expect(Set(owners.values) == Set(names))
            // Sent to a replica that does not hold the user, a line is refused with the owner named and answered there.
            for (index, user) in users.enumerated() {
                let wrong = names[(index + 1) % 3]
                let (answer, by) = try await cluster.ask(user, "how much free space is on disk", first: wrong)
                #expect(answer["status"] as? String == "ok", "\(answer)")
                #expect(by == owners[user])
                #expect(cluster.replica(wrong).stdout.contains(#""owner":"\#(owners[user]!)""#))
            }
            #expect(Set(cluster.backend.sessionIDs).count == users.count + names.count)
            cluster.checkExactlyOnce()
        }
    }

    @Test func aReplicaKilledInTheMiddleOfACallLeavesItReportedInterruptedOnceByTheReplicaThatTookTheUserOver()
        async throws
    {
        try await ReplicaCluster.run { cluster in
            try await cluster.launch("a")
            try await cluster.launch("b")
            _ = try cluster.send("alice", Self.slowQuestion, to: "a")
            let callID = try #require(await cluster.startedCall(on: "a"))
            await cluster.kill("a")
            #expect(await Self.resultAccepted(callID, cluster))
            await cluster.backend.waitForIdleTurns()
            #expect(Self.interruptedReports(cluster) == 1)
            let (next, by) = try await cluster.ask("alice", "what time is it")
            #expect(next["status"] as? String == "ok", "\(next)")
            #expect(by == "b")
            cluster.checkExactlyOnce()
        }
    }

    @Test func aReplicaKilledInTheMiddleOfAResultsPostLeavesItPostedOnceAndTheCallNotRunAgain() async throws {
        try await ReplicaCluster.run { cluster in
            try await cluster.launch("a")
            try await cluster.launch("b")
            let faults = cluster.backend.configuration.faults
            faults.stall(Self.toolResults)
            _ = try cluster.send("bob", "what time is it", to: "a")
            await faults.waitForStalledRequests(count: 1)
            let callID = try #require(await cluster.startedCall(on: "a"))
            await cluster.kill("a")
            faults.releaseStalls()
            #expect(await Self.resultAccepted(callID, cluster))
            await cluster.backend.waitForIdleTurns()
            let (next, by) = try await cluster.ask("bob", "how much free space is on disk")
            #expect(next["status"] as? String == "ok", "\(next)")
            #expect(by == "b")
            #expect(cluster.executions[callID] == 1)
            cluster.checkExactlyOnce()
        }
    }

    @Test func aUserOfAReplicaKilledWhileIdleIsAnsweredByAnotherOnceItsLeaseRanOut() async throws {
        try await ReplicaCluster.run { cluster in
            try await cluster.launch("a")
            try await cluster.launch("b")
            let (first, firstBy) = try await cluster.ask("carol", "what time is it", first: "a")
            #expect(first["status"] as? String == "ok" && firstBy == "a")
            await cluster.kill("a")
            let (next, by) = try await cluster.ask("carol", "how much free space is on disk")
            #expect(next["status"] as? String == "ok", "\(next)")
            #expect(by == "b")
            // Refused while the dead replica's lease ran, with how long it had left.
            #expect(cluster.replica("b").stdout.contains(#""code":"key_owned_elsewhere""#))
            #expect(cluster.replica("b").stdout.contains(#""retry_after_ms":"#))
            cluster.checkExactlyOnce()
        }
    }

    @Test func aReplicaFrozenPastItsLeaseHasItsLateWritesRefusedAndPostsNothing() async throws {
        try await ReplicaCluster.run { cluster in
            let frozen = try await cluster.launch("a")
            try await cluster.launch("b")
            let id = try cluster.send("dave", Self.slowQuestion, to: "a")
            let callID = try #require(await cluster.startedCall(on: "a"))
            frozen.signal(SIGSTOP)
            // Past its lease, replica b's sweep takes dave over and reports the call interrupted.
            #expect(await Self.resultAccepted(callID, cluster))
            frozen.signal(SIGCONT)
            // Its call then finishes, but the fence refuses the result's write: its run for dave ends naming b, and
            // it posts nothing. The line it was asked is answered all the same (by the turn's end its stream saw).
            #expect(
                await frozen.waitFor(\.stderr, timeout: .seconds(30)) {
                    $0.contains("key_owned_elsewhere: Replica b owns")
                }, "\(frozen.stderr.suffix(3000))")
            #expect(await cluster.answer(id: id, from: frozen, timeout: .seconds(30)) != nil)
            await cluster.backend.waitForIdleTurns()
            #expect(Self.interruptedReports(cluster) == 1)
            let (next, by) = try await cluster.ask("dave", "what time is it", first: "a")
            #expect(next["status"] as? String == "ok", "\(next)")
            #expect(by == "b")
            cluster.checkExactlyOnce()
        }
    }

    @Test func redisRestartedFromItsAOFLosesNothingAndEveryUserIsAnswered() async throws {
        try await ReplicaCluster.run { cluster in
            try await cluster.launch("a")
            try await cluster.launch("b")
            _ = try await cluster.ask("erin", "what time is it", first: "a")
            _ = try await cluster.ask("frank", "what time is it", first: "b")
            await cluster.redis.kill()
            let erin = try cluster.send("erin", "how much free space is on disk", to: "a")
            let frank = try cluster.send("frank", Self.slowQuestion, to: "b")
            try await Task.sleep(for: .milliseconds(500))
            try await cluster.redis.launch()
            let erinAnswer = await cluster.answer(id: erin, from: cluster.replica("a"), timeout: .seconds(30))
            let frankAnswer = await cluster.answer(id: frank, from: cluster.replica("b"), timeout: .seconds(30))
            #expect(erinAnswer?["status"] as? String == "ok", "\(erinAnswer ?? [:])")
            #expect(frankAnswer?["status"] as? String == "ok", "\(frankAnswer ?? [:])")
            // The leases came back with the AOF: each user stays with its replica.
            let (next, by) = try await cluster.ask("erin", "what time is it", first: "b")
            #expect(next["status"] as? String == "ok" && by == "a")
            cluster.checkExactlyOnce()
        }
    }

    /// Waits (bounded: a lease, a sweep and a session's setup) until the backend accepted a result for `callID`.
    static func resultAccepted(_ callID: String, _ cluster: ReplicaCluster) async -> Bool {
        let deadline = ContinuousClock.now.advanced(by: .seconds(30))
        while ContinuousClock.now < deadline, !Task.isCancelled {
            if cluster.backend.counters.toolResults[callID]?.accepted == 1 { return true }
            try? await Task.sleep(for: .milliseconds(50))
        }
        return false
    }

    /// How many turns ended with an answer quoting an interrupted call.
    static func interruptedReports(_ cluster: ReplicaCluster) -> Int {
        cluster.backend.sessionIDs.reduce(0) { count, session in
            count
                + cluster.backend.events(inSession: session).filter {
                    $0.type == "turn_complete" && $0.frame.contains("Interrupted")
                }.count
        }
    }
}
