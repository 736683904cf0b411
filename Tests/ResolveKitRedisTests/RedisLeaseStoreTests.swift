import Glibc
import ResolveKitRedis
import ResolveKitTesting
import Testing

/// Leases, fencing and the state scripts against a real `redis-server`.
@Suite(
    .enabled(if: ExternalProgram.redisServer.shouldRun, Comment(rawValue: ExternalProgram.redisServer.skipNote)),
    .timeLimit(.minutes(1)))
struct RedisLeaseStoreTests {
    @Test func aSecondHolderIsRefusedWithTheHolderNamedAndTokensGrowAcrossHolders() async throws {
        try await withRedisServer { server in
            let client = try server.client()
            defer { client.close() }
            let store = RedisLeaseStore(client: client, prefix: "rk:test")
            let first = try await store.acquire("alice@example.com", holder: "replica-a", duration: .seconds(30))
            #expect(first.token == 1)
            let again = try await store.acquire("alice@example.com", holder: "replica-a", duration: .seconds(30))
            #expect(again.token == 1)
            let error = await #expect(throws: RedisError.self) {
                try await store.acquire("alice@example.com", holder: "replica-b", duration: .seconds(30))
            }
            #expect(error?.code == .leaseHeld)
            #expect(error?.holder == "replica-a")
            #expect(error.map { $0.remaining! > .seconds(25) && $0.remaining! <= .seconds(30) } == true)
            #expect(error?.message.contains("replica-a") == true)
            #expect(try await store.release(first))
            #expect(try await !store.release(first))
            let second = try await store.acquire("alice@example.com", holder: "replica-b", duration: .seconds(30))
            #expect(second.token == 2)
            let other = try await store.acquire("bob", holder: "replica-a", duration: .seconds(30))
            #expect(other.token == 1)
        }
    }

    @Test func onlyTheHolderRenewsAndTheRenewalResetsTheExpiry() async throws {
        try await withRedisServer { server in
            let client = try server.client()
            defer { client.close() }
            let store = RedisLeaseStore(client: client, prefix: "rk:test")
            let grant = try await store.acquire("carol", holder: "replica-a", duration: .seconds(2))
            _ = try await client.send(RedisCommand("PEXPIRE", store.keys("carol").lease, "500"))
            try await store.renew(grant)
            let ttl = try await client.send(RedisCommand("PTTL", store.keys("carol").lease)).integer ?? 0
            #expect(ttl > 1500)
            var forged = grant
            forged.holder = "replica-b"
            let error = await #expect(throws: RedisError.self) { try await store.renew(forged) }
            #expect(error?.code == .leaseLost)
            #expect(error?.holder == "replica-a")
            var stale = grant
            stale.token = 7
            #expect(await #expect(throws: RedisError.self) { try await store.renew(stale) }?.code == .leaseLost)
        }
    }

    /// A holder paused past its lease: another replica takes the key, and the old holder's late writes are refused.
    @Test func anExpiredLeaseIsTakenOverAndTheStaleTokensWriteIsFencedOut() async throws {
        try await withRedisServer { server in
            let client = try server.client()
            defer { client.close() }
            let store = RedisLeaseStore(client: client, prefix: "rk:test")
            let old = try await store.acquire("dave", holder: "replica-a", duration: .milliseconds(150))
            var first = RedisStateChange()
            first.putJournalEntry(callID: "call_1", line: #"{"status":"running"}"#)
            first.setField("cursor", to: "10")
            try await store.write("dave", token: old.token, first)
            #expect(await eventually { (try? await store.read("dave"))?.holder == nil })
            let new = try await store.acquire("dave", holder: "replica-b", duration: .seconds(30))
            #expect(new.token == old.token + 1)
            let renewal = await #expect(throws: RedisError.self) { try await store.renew(old) }
            #expect(renewal?.code == .leaseLost)
            #expect(renewal?.holder == "replica-b")
            var late = RedisStateChange()
            late.putJournalEntry(callID: "call_1", line: #"{"status":"answered"}"#)
            late.markUndelivered(callID: "call_1")
            let fenced = await #expect(throws: RedisError.self) {
                try await store.write("dave", token: old.token, late)
            }
            #expect(fenced?.code == .fencedOut)
            #expect(fenced?.currentToken == new.token)
            #expect(fenced?.message.contains("\(new.token)") == true)

            var takeover = RedisStateChange()
            takeover.putJournalEntry(callID: "call_1", line: #"{"status":"answered","error":"process stopped"}"#)
            takeover.markUndelivered(callID: "call_1")
            takeover.setField("cursor", to: "11")
            try await store.write("dave", token: new.token, takeover)
            let state = try await store.read("dave")
            #expect(state.holder == "replica-b")
            #expect(state.token == new.token)
            #expect(state.journal == ["call_1": #"{"status":"answered","error":"process stopped"}"#])
            #expect(state.undelivered == ["call_1"])
            #expect(state.fields["cursor"] == "11")
            #expect(state.fields["user_key"] == "dave")
            #expect(state.leaseRemaining.map { $0 > .seconds(25) } == true)
        }
    }

    /// A holder cut off past its lease while no replica wanted the key takes it back with the same token; once another
    /// holder took it and let it go, the old token is refused.
    @Test func anExpiredLeaseNobodyTookIsTakenBackByItsHolderWithTheSameToken() async throws {
        try await withRedisServer { server in
            let client = try server.client()
            defer { client.close() }
            let store = RedisLeaseStore(client: client, prefix: "rk:test")
            var grant = try await store.acquire("gina", holder: "replica-a", duration: .milliseconds(100))
            #expect(await eventually { (try? await store.read("gina"))?.holder == nil })
            grant.duration = .seconds(30)
            try await store.renew(grant)
            let state = try await store.read("gina")
            #expect(state.holder == "replica-a")
            #expect(state.token == grant.token)
            try await store.write("gina", token: grant.token, RedisStateChange([.setField(name: "cursor", value: "2")]))

            #expect(try await store.release(grant))
            let other = try await store.acquire("gina", holder: "replica-b", duration: .seconds(30))
            #expect(try await store.release(other))
            let stale = await #expect(throws: RedisError.self) { try await store.renew(grant) }
            #expect(stale?.code == .leaseLost)
            #expect(stale?.holder == nil)
            #expect(try await store.read("gina").holder == nil)
        }
    }

    @Test func aFencedWriteAppliesEveryKindOfChangeAtomically() async throws {
        try await withRedisServer { server in
            let client = try server.client()
            defer { client.close() }
            let store = RedisLeaseStore(client: client, prefix: "rk:test")
            let grant = try await store.acquire("erin", holder: "replica-a", duration: .seconds(30))
            try await store.write(
                "erin", token: grant.token,
                RedisStateChange([
                    .putJournalEntry(callID: "c1", line: "{}"), .putJournalEntry(callID: "c2", line: "{}"),
                    .markUndelivered(callID: "c1"), .markUndelivered(callID: "c2"),
                    .setField(name: "session", value: "sess_1"), .setField(name: "device_id", value: "dev"),
                ]))
            try await store.write(
                "erin", token: grant.token,
                RedisStateChange([
                    .removeJournalEntry(callID: "c2"), .markDelivered(callID: "c2"), .removeField(name: "device_id"),
                ]))
            let state = try await store.read("erin")
            #expect(state.journal == ["c1": "{}"])
            #expect(state.undelivered == ["c1"])
            #expect(state.fields == ["session": "sess_1", "user_key": "erin"])
            try await store.write(
                "erin", token: grant.token,
                RedisStateChange([
                    .clearJournal, .putJournalEntry(callID: "c3", line: "{}"), .markUndelivered(callID: "c3"),
                ]))
            let compacted = try await store.read("erin")
            #expect(compacted.journal == ["c3": "{}"])
            #expect(compacted.undelivered == ["c3"])
            #expect(compacted.fields["session"] == "sess_1")
            let never = await #expect(throws: RedisError.self) {
                try await store.write("frank", token: 1, RedisStateChange([.setField(name: "x", value: "y")]))
            }
            #expect(never?.code == .fencedOut)
            #expect(never?.currentToken == 0)
        }
    }

    @Test func theSweepFindsOnlyExpiredLeasesWithUndeliveredResults() async throws {
        try await withRedisServer { server in
            let client = try server.client()
            defer { client.close() }
            let store = RedisLeaseStore(client: client, prefix: "rk:sweep")
            let undelivered = RedisStateChange([.markUndelivered(callID: "c1")])
            let dead = try await store.acquire("dead-user", holder: "replica-a", duration: .milliseconds(100))
            try await store.write("dead-user", token: dead.token, undelivered)
            let live = try await store.acquire("live-user", holder: "replica-a", duration: .seconds(30))
            try await store.write("live-user", token: live.token, undelivered)
            let idle = try await store.acquire("idle-user", holder: "replica-a", duration: .milliseconds(100))
            try await store.write(
                "idle-user", token: idle.token, RedisStateChange([.setField(name: "cursor", value: "1")]))
            let otherApp = RedisLeaseStore(client: client, prefix: "rk:other")
            let foreign = try await otherApp.acquire("dead-user", holder: "replica-a", duration: .milliseconds(100))
            try await otherApp.write("dead-user", token: foreign.token, undelivered)
            for index in 0..<300 { _ = try await client.send(RedisCommand("SET", "noise:\(index)", "x")) }
            #expect(await eventually { (try? await store.read("dead-user"))?.holder == nil })
            #expect(await eventually { (try? await store.read("idle-user"))?.holder == nil })
            var orphans: [String] = []
            var cursor = "0"
            repeat {
                let pass = try await store.sweep(from: cursor, scanCalls: 2, count: 50)
                orphans += pass.orphans
                cursor = pass.cursor
            } while cursor != "0"
            #expect(orphans == ["dead-user"])
        }
    }

    @Test func everyKeyOfAUserSharesOneHashTagAndSlot() {
        let keys = RedisLeaseKeys(prefix: "rk:app", userKey: "alice@example.com")
        #expect(keys.tag.hasPrefix("{rk:app:") && keys.tag.hasSuffix("}") && keys.tag.count == 73)
        #expect(!keys.tag.contains("alice"))
        for key in keys.all {
            #expect(key.hasPrefix(keys.tag + ":"))
            #expect(RedisLeaseKeys.slot(of: key) == RedisLeaseKeys.slot(of: keys.all[0]))
        }
        #expect(
            keys.all.map { String($0.dropFirst(keys.tag.count)) } == [
                ":lease", ":fence", ":journal", ":undelivered", ":state",
            ])
        let store = RedisLeaseStore(client: RedisClient(configuration: RedisConfiguration(url: RedisURL(
            address: .tcp(host: "127.0.0.1", port: 1)))), prefix: "rk:app")
        #expect(store.appKey("approvals") == "{rk:app}:approvals")
        // Redis Cluster's reference values.
        #expect(RedisLeaseKeys.slot(of: "123456789") == 12739)
        #expect(RedisLeaseKeys.slot(of: "{user1000}.following") == RedisLeaseKeys.slot(of: "{user1000}.followers"))
        #expect(RedisLeaseKeys.slot(of: "foo{{bar}}zap") == RedisLeaseKeys.slot(of: "x{{bar}y"))
        #expect(RedisLeaseKeys.slot(of: "foo{}{bar}") != RedisLeaseKeys.slot(of: "foo{}{bar}x"))
    }

    /// On a cluster node serving every slot, Redis refuses a script whose keys are in different slots (`CROSSSLOT`):
    /// each script passing here touches one slot, and `CLUSTER KEYSLOT` agrees with our slot function.
    @Test func everyScriptRunsOnOneSlotOfARedisCluster() async throws {
        // The cluster bus needs a port of its own (by default the port plus 10,000, which may be past 65,535).
        let cluster = [
            "cluster-enabled yes", "cluster-config-file nodes.conf", "cluster-port \(RedisTestServer.freePort())",
        ]
        try await withRedisServer(extraConfig: cluster) { server in
            let client = try server.client()
            defer { client.close() }
            _ = try await client.send(RedisCommand("CLUSTER", "ADDSLOTSRANGE", "0", "16383"))
            // A node that just took every slot turns `ok` after Redis' writable delay (2 s) at a later cron tick; on a
            // machine busy with the other suites that took more than five seconds once.
            #expect(
                await eventually(timeout: .seconds(20)) {
                    (try? await client.send(RedisCommand("CLUSTER", "INFO")))?.string?.contains("cluster_state:ok")
                        == true
                })
            let crossSlot = await #expect(throws: RedisError.self) {
                try await client.send(RedisCommand("MSET", "a", "1", "b", "2"))
            }
            #expect(crossSlot?.serverPrefix == "CROSSSLOT")
            let store = RedisLeaseStore(client: client, prefix: "rk:cluster")
            for user in ["alice", "bob@example.com", "ünïcödé"] {
                for key in store.keys(user).all {
                    let slot = try await client.send(RedisCommand("CLUSTER", "KEYSLOT", key)).integer
                    #expect(slot == Int64(RedisLeaseKeys.slot(of: key)))
                }
                let grant = try await store.acquire(user, holder: "replica-a", duration: .seconds(30))
                try await store.renew(grant)
                try await store.write(
                    user, token: grant.token,
                    RedisStateChange([
                        .putJournalEntry(callID: "c", line: "{}"), .markUndelivered(callID: "c"),
                        .setField(name: "cursor", value: "1"), .clearJournal, .markUndelivered(callID: "c"),
                    ]))
                #expect(try await store.read(user).undelivered == ["c"])
                #expect(try await store.release(grant))
            }
            // Released with a result still undelivered: every user is an orphan to take over.
            #expect(Set(try await store.sweep().orphans) == ["alice", "bob@example.com", "ünïcödé"])
        }
    }
}
