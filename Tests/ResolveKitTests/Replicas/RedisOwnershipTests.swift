import Foundation
import ResolveKitRedis
import ResolveKitTelemetry
import ResolveKitTesting
import Testing

@testable import ResolveKit

/// A user key's state in Redis is owned by one replica at a time: the others are refused at once with the owner
/// named, the next owner finds the session, cursor, device id and journal where the last one left them, and a
/// replica that lost the key cannot write.
@Suite(
    .serialized,
    .enabled(if: ExternalProgram.redisServer.shouldRun, Comment(rawValue: ExternalProgram.redisServer.skipNote)),
    .timeLimit(.minutes(2)))
struct RedisOwnershipTests {
    @Test func aSecondReplicaIsRefusedTheKeyAtOnceWithTheOwnerNamedAndGetsItOnceTheFirstStopped() async throws {
        try await ReplicaHarness.run { harness in
            // A lease far longer than the bound below, which leaves room for a machine busy with the whole run.
            let first = ResolveKitRuntime(configuration: harness.configuration("replica-a", lease: .seconds(300)))
            try await first.start()
            let second = ResolveKitRuntime(configuration: harness.configuration("replica-b", lease: .seconds(300)))
            let started = ContinuousClock.now
            let error = await #expect(throws: ResolveKitError.self) { try await second.start() }
            #expect(ContinuousClock.now - started < .seconds(60), "at once, not when the 300 s lease runs out")
            #expect(error?.code == .keyOwnedElsewhere)
            #expect(error?.keyOwner?.replica == "replica-a")
            #expect(error?.keyOwner?.holder.hasPrefix("replica-a#") == true)
            #expect(error?.keyOwner?.leaseRemaining.map { $0 > .seconds(200) } == true)
            #expect(error?.message.contains("replica-a") == true)
            #expect(second.connectionState == .blocked(error!))
            #expect(harness.backend.sessionIDs.count == 1)

            await first.stop()
            #expect(try await harness.stored("replica-test").holder == nil)
            try await second.start()
            #expect(second.sessionID == first.sessionID)
            await second.stop()
        }
    }

    @Test func theNextOwnerResumesTheSameSessionWithTheDeviceIDAndJournalTheLastOneStored() async throws {
        try await ReplicaHarness.run { harness in
            let first = ResolveKitRuntime(configuration: harness.configuration("replica-a"))
            try await first.start()
            try await first.converse("lights please")
            #expect(first.item("set_lights")?.status == .completed)
            // Settled once the backend acknowledged the result (the turn may end before that answer comes back).
            #expect(
                await harness.eventually { (try? await harness.stored("replica-test"))?.undelivered.isEmpty == true })
            await first.stop()
            let stored = try await harness.stored("replica-test")
            #expect(stored.fields["device_id"]?.isEmpty == false)
            #expect(stored.journal.count == 1)
            let record = try #require(stored.fields["session"].flatMap { try? JSONValue(parsing: $0) })
            #expect(record["session_id"]?.stringValue == first.sessionID)
            #expect(record["cursor"]?.stringValue != nil)

            let second = ResolveKitRuntime(configuration: harness.configuration("replica-b"))
            try await second.start()
            #expect(second.sessionID == first.sessionID)
            #expect(harness.backend.sessionIDs.count == 1)
            try await second.converse("lights again")
            #expect(second.item("set_lights")?.status == .completed)
            await second.stop()
            #expect(try await harness.stored("replica-test").journal.count == 2)
        }
    }

    /// A replica cut off from Redis past its lease while another took the key: its renewal learns it lost the key,
    /// its late writes are refused, its run ends naming the new owner, and its host hands the key's requests no
    /// more.
    @Test func aReplicaThatLostItsKeyWritesNothingMoreAndItsHostNamesTheNewOwner() async throws {
        try await ReplicaHarness.run { harness in
            let metricsA = MetricsRegistry()
            let hostA = harness.host("replica-a", metrics: metricsA)
            let hostB = harness.host("replica-b")
            let runtimeA = try await hostA.session(for: "alice")
            try await harness.kill("replica-a")
            #expect(await harness.eventually { runtimeA.store.startRefusal() != nil })
            #expect(
                await harness.eventually {
                    (try? await hostB.session(for: "alice")) != nil
                })
            try await harness.revive("replica-a")
            // Its renewal now finds the lease held by replica-b.
            #expect(await harness.eventually { runtimeA.store.ownershipLost() != nil })
            let refused = await #expect(throws: ResolveKitError.self) { try await hostA.ask("lights", as: "alice") }
            #expect(refused?.code == .keyOwnedElsewhere)
            #expect(refused?.keyOwner?.replica == "replica-b")
            // Counted once each: the idle session found taken, then the request that came to the wrong replica.
            for event in ["lost", "owned_elsewhere"] {
                let line = ReplicaHarness.metricLine(
                    #"resolvekit_replica_key_events_total{event="\#(event)"}"#, in: metricsA)
                #expect(line?.hasSuffix(" 1") == true, "\(event): \(line ?? "no such series")")
            }
            let answer = try await hostB.ask("lights", as: "alice", timeout: .seconds(20))
            #expect(answer.toolCalls.first?.status == .completed)
            #expect(try await harness.stored("alice").holder?.hasPrefix("replica-b#") == true)
            await hostA.drain(timeout: .seconds(2))
            await hostB.drain(timeout: .seconds(2))
        }
    }

    /// The hash holds no more than the journal: the write that forgets a call deletes its field, so Redis never
    /// needs the whole journal rewritten.
    @Test func aCallTheJournalForgetsLosesItsFieldInTheSameWrite() async throws {
        try await ReplicaHarness.run { harness in
            let store = RedisStateStore(
                url: harness.url("replica-a"), prefix: harness.prefix, userKey: "forgetful",
                settings: ReplicaSettings(name: "replica-a", sweepInterval: nil))
            #expect(!store.journalKeepsEveryRecord)
            try await store.acquire()
            var journal = CallJournal(capacity: 8)
            for index in 0..<20 {
                let key = CallJournal.Key(sessionID: "s1", callID: ToolCallID("c\(index)"))
                _ = journal.admit(sessionID: "s1", callID: key.callID, turnID: "t", functionName: "get_time")
                journal.recordResult(key, .success("ok"))
                journal.settle(key)
                try await store.apply(
                    .appendJournal(journal.takeChangedEntries(), forgotten: journal.takeForgottenKeys()))
            }
            let stored = try await harness.stored("forgetful")
            #expect(stored.journal.keys.sorted() == (12..<20).map { "s1/c\($0)" }.sorted())
            #expect(stored.undelivered.isEmpty)
            await store.release()
        }
    }
}
