import Foundation
import ResolveKit
import ResolveKitRedis
import ResolveKitTelemetry
import ResolveKitTesting
import Testing

/// When a replica dies, another one takes its users over: the host's sweep finds the keys it left with calls
/// unsettled once their leases ran out, and the new owner delivers what the journal holds. A result is posted once,
/// and a call that was running is reported interrupted, never run again.
@Suite(
    .serialized,
    .enabled(if: ExternalProgram.redisServer.shouldRun, Comment(rawValue: ExternalProgram.redisServer.skipNote)),
    .timeLimit(.minutes(2)))
struct RedisTakeoverTests {
    static let toolResults = FaultPlan.Endpoint("POST", "/v1/sessions/*/tool-results")

    @Test func aResultItsReplicaDiedBeforeDeliveringIsPostedOnceByTheReplicaThatSweptTheKey() async throws {
        try await ReplicaHarness.run { harness in
            let metricsB = MetricsRegistry()
            let (hostA, hostB) = (harness.host("replica-a"), harness.host("replica-b", metrics: metricsB))
            // Replica B serves another user, so its sweep runs.
            _ = try await hostB.session(for: "bob")
            let faults = harness.backend.configuration.faults
            faults.fail(Self.toolResults, status: 503, times: 10_000)
            let asking = Task { try? await hostA.ask("what time is it", as: "alice", timeout: .seconds(30)) }
            let runtimeA = try await hostA.session(for: "alice")
            #expect(await harness.eventually { runtimeA.item("get_time")?.status == .completed })
            let callID = try #require(runtimeA.item("get_time")?.id)
            #expect(try await harness.stored("alice").undelivered.count == 1)

            try await Self.die(harness, hostA, "replica-a")
            asking.cancel()
            faults.reset()
            #expect(await harness.eventually { harness.backend.counters.toolResults[callID.rawValue]?.accepted == 1 })
            await harness.backend.waitForIdleTurns()
            #expect(ExecutionLedger.shared.count(callID) == 1)
            #expect(harness.backend.counters.toolResults[callID.rawValue]?.accepted == 1)
            let session = try #require(runtimeA.sessionID)
            let answer = harness.backend.events(inSession: session).last { $0.type == "turn_complete" }
            #expect(answer?.frame.contains("The get_time returned") == true)
            #expect(hostB.openSessionKeys.contains("alice"))
            // Counted once the sweep's session(for:) returned, a moment after the key is open.
            let takeovers = #"resolvekit_replica_key_events_total{event="taken_over"}"#
            #expect(
                await harness.eventually {
                    ReplicaHarness.metricLine(takeovers, in: metricsB)?.hasSuffix(" 1") == true
                },
                "\(ReplicaHarness.metricLine(takeovers, in: metricsB) ?? "no such series")")
            let stored = try await harness.stored("alice")
            #expect(stored.holder?.hasPrefix("replica-b#") == true)
            #expect(await harness.eventually { (try? await harness.stored("alice"))?.undelivered.isEmpty == true })
            await hostB.drain(timeout: .seconds(2))
        }
    }

    @Test func aCallRunningWhenItsReplicaDiedIsReportedInterruptedOnceByTheNewOwnerAndNeverRunAgain() async throws {
        try await ReplicaHarness.run { harness in
            let (hostA, hostB) = (harness.host("replica-a"), harness.host("replica-b"))
            _ = try await hostB.session(for: "bob")
            let faults = harness.backend.configuration.faults
            let asking = Task { try? await hostA.ask("hold on", as: "alice", timeout: .seconds(30)) }
            let runtimeA = try await hostA.session(for: "alice")
            #expect(await harness.eventually { runtimeA.item("hold")?.status == .running })
            let callID = try #require(runtimeA.item("hold")?.id)
            #expect(await harness.eventually { ExecutionLedger.shared.count(callID) == 1 })

            // The dying replica posts nothing more: its last words fail at the backend.
            faults.fail(Self.toolResults, status: 503, times: 10_000)
            try await Self.die(harness, hostA, "replica-a")
            asking.cancel()
            faults.reset()
            #expect(await harness.eventually { harness.backend.counters.toolResults[callID.rawValue]?.accepted == 1 })
            await harness.backend.waitForIdleTurns()
            #expect(ExecutionLedger.shared.count(callID) == 1)
            let session = try #require(runtimeA.sessionID)
            let answer = harness.backend.events(inSession: session).last { $0.type == "turn_complete" }
            #expect(answer?.frame.contains("Interrupted") == true)
            #expect(harness.backend.counters.toolResults[callID.rawValue]?.accepted == 1)
            // The user's next question is answered by the new owner.
            let next = try await hostB.ask("lights", as: "alice", timeout: .seconds(20))
            #expect(next.toolCalls.first?.status == .completed)
            await hostB.drain(timeout: .seconds(2))
        }
    }

    /// What dying means here: Redis no longer lets the replica in, and its host stops at once (running calls are
    /// cancelled; nothing it writes lands).
    static func die(_ harness: ReplicaHarness, _ host: ResolveKitHost, _ replica: String) async throws {
        try await harness.kill(replica)
        await host.drain(timeout: .zero)
    }
}
