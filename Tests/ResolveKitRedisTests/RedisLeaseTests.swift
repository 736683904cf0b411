import Glibc
import ResolveKitRedis
import ResolveKitTesting
import Synchronization
import Testing

/// The lease owner: renewals on a manual clock against a real `redis-server`.
@Suite(
    .enabled(if: ExternalProgram.redisServer.shouldRun, Comment(rawValue: ExternalProgram.redisServer.skipNote)),
    .timeLimit(.minutes(1)))
struct RedisLeaseTests {
    @Test func aHeldLeaseIsRenewedAtAThirdOfItsLengthAndReleasedAtTheEnd() async throws {
        try await withRedisServer { server in
            let client = try server.client()
            defer { client.close() }
            let store = RedisLeaseStore(client: client, prefix: "rk:lease")
            let clock = ManualClock()
            let leaseKey = store.keys("alice").lease
            let held = try await RedisLease.withLease(
                "alice", in: store, holder: "replica-a", duration: .seconds(3), clock: clock
            ) { lease in
                #expect(lease.token == 1)
                #expect(lease.mayStartCalls())
                #expect(lease.startWindow == .seconds(2))
                _ = try await client.send(RedisCommand("PEXPIRE", leaseKey, "800"))
                await clock.waitForSleeper(at: ManualClock.Instant(offset: .seconds(1)))
                clock.advance(by: .seconds(1))
                let renewed = await eventually {
                    ((try? await client.send(RedisCommand("PTTL", leaseKey)))?.integer ?? 0) > 2000
                }
                #expect(renewed)
                await clock.waitForSleeper(at: ManualClock.Instant(offset: .seconds(2)))
                #expect(lease.status == .held)
                #expect(lease.startWindow == .seconds(2))
                return lease
            }
            #expect(held.status == .released)
            #expect(!held.mayStartCalls())
            #expect(try await client.send(RedisCommand("EXISTS", leaseKey)) == .integer(0))
        }
    }

    @Test func aLeaseTakenByAnotherHolderIsReportedLostAndNoCallMayStart() async throws {
        try await withRedisServer { server in
            let client = try server.client()
            defer { client.close() }
            let store = RedisLeaseStore(client: client, prefix: "rk:lease")
            let clock = ManualClock()
            let lease = try await RedisLease.acquire(
                "bob", in: store, holder: "replica-a", duration: .seconds(3), clock: clock)
            async let renewing: Void = lease.keepRenewed()
            _ = try await client.send(RedisCommand("DEL", store.keys("bob").lease))
            let stolen = try await store.acquire("bob", holder: "replica-b", duration: .seconds(30))
            #expect(stolen.token == 2)
            await clock.waitForSleepers(count: 1)
            clock.advance(by: .seconds(1))
            await renewing
            #expect(lease.status == .lost(holder: "replica-b"))
            #expect(!lease.mayStartCalls())
            try await lease.release()
            #expect(try await store.read("bob").holder == "replica-b")
        }
    }

    @Test func failingRenewalsStopNewCallsBeforeTheLeaseRunsOut() async throws {
        try await withRedisServer { server in
            // Long enough for a command to a running server on a machine busy with the whole parallel run; a
            // command to the stopped server waits it out before the renewal counts as failed.
            let client = try server.client(commandTimeout: .seconds(2))
            defer { client.close() }
            let store = RedisLeaseStore(client: client, prefix: "rk:lease")
            let clock = ManualClock()
            let statuses = StatusLog()
            let lease = try await RedisLease.acquire(
                "carol", in: store, holder: "replica-a", duration: .seconds(3), clock: clock,
                onStatusChange: { statuses.append($0) })
            async let renewing: Void = lease.keepRenewed()
            server.signal(SIGSTOP)
            await clock.waitForSleepers(count: 1)
            clock.advance(by: .seconds(1))
            #expect(await eventually { if case .renewalFailing = lease.status { true } else { false } })
            #expect(lease.mayStartCalls())
            await clock.waitForSleeper(at: ManualClock.Instant(offset: .milliseconds(1300)))
            clock.advance(to: ManualClock.Instant(offset: .seconds(2)))
            #expect(!lease.mayStartCalls())
            // The retry due at 1.3 s ran at 2 s and failed too; the next is due at 2.3 s.
            await clock.waitForSleeper(at: ManualClock.Instant(offset: .milliseconds(2300)))
            server.signal(SIGCONT)
            // Past the lease's end on this side the renewal is still sent, and Redis says the lease is still ours.
            clock.advance(to: ManualClock.Instant(offset: .seconds(3)))
            #expect(await eventually { lease.status == .held })
            #expect(lease.mayStartCalls())
            try await lease.release()
            await clock.waitForSleeper(at: ManualClock.Instant(offset: .seconds(4)))
            clock.advance(by: .seconds(1))
            await renewing
            #expect(statuses.values.first.map { if case .renewalFailing = $0 { true } else { false } } == true)
            #expect(statuses.values.suffix(2) == [.held, .released])
        }
    }
}

/// Status changes as reported, for the test to read.
final class StatusLog: Sendable {
    private let storage = Synchronization.Mutex<[RedisLease.Status]>([])
    func append(_ status: RedisLease.Status) { storage.withLock { $0.append(status) } }
    var values: [RedisLease.Status] { storage.withLock { $0 } }
}
