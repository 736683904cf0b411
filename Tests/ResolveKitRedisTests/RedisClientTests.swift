import Glibc
import ResolveKitRedis
import ResolveKitTesting
import Testing

/// The client against a real `redis-server` started by each test.
@Suite(
    .enabled(if: ExternalProgram.redisServer.shouldRun, Comment(rawValue: ExternalProgram.redisServer.skipNote)),
    .timeLimit(.minutes(1)))
struct RedisClientTests {
    @Test func valuesRoundTripOverTCPWithRESP3() async throws {
        try await withRedisServer { server in
            let client = try server.client()
            defer { client.close() }
            #expect(try await client.send(RedisCommand("SET", "greeting", "hello")) == .simpleString("OK"))
            #expect(try await client.send(RedisCommand("GET", "greeting")).string == "hello")
            #expect(try await client.send(RedisCommand("GET", "missing")) == .null)
            #expect(try await client.send(RedisCommand("INCRBY", "counter", "41")) == .integer(41))
            _ = try await client.send(RedisCommand("HSET", "hash", "a", "1", "b", "2"))
            let hash = try await client.send(RedisCommand("HGETALL", "hash"))
            guard case .map(let pairs) = hash else {
                Issue.record("HGETALL in RESP3 is not a map: \(hash)")
                return
            }
            #expect(Set(pairs.map { $0.key.string ?? "" }) == ["a", "b"])
            _ = try await client.send(RedisCommand("ZADD", "scores", "1.5", "x"))
            #expect(try await client.send(RedisCommand("ZSCORE", "scores", "x")) == .double(1.5))
            let binary: [UInt8] = [0, 13, 10, 255, 36]
            _ = try await client.send(RedisCommand(parts: [Array("SET".utf8), Array("raw".utf8), binary]))
            #expect(try await client.send(RedisCommand("GET", "raw")).bytes == binary)
            #expect(client.protocolVersion == 3)
        }
    }

    /// `DEBUG PROTOCOL <type>` makes the server send each RESP3 type; every one parses.
    @Test func everyRESP3TypeTheServerSendsParses() async throws {
        try await withRedisServer(extraConfig: ["enable-debug-command yes"]) { server in
            let client = try server.client()
            defer { client.close() }
            func reply(_ type: String) async throws -> RESPValue {
                try await client.send(RedisCommand("DEBUG", "PROTOCOL", type))
            }
            #expect(try await reply("string").string == "Hello World")
            #expect(try await reply("integer") == .integer(12345))
            #expect(try await reply("double") == .double(3.141))
            #expect(try await reply("bignum") == .bigNumber("1234567999999999999999999999999999999"))
            #expect(try await reply("null") == .null)
            #expect(try await reply("array") == .array([.integer(0), .integer(1), .integer(2)]))
            #expect(try await reply("set") == .set([.integer(0), .integer(1), .integer(2)]))
            #expect(try await reply("true") == .boolean(true))
            #expect(try await reply("false") == .boolean(false))
            #expect(
                try await reply("verbatim")
                    == .verbatimString(format: "txt", text: Array("This is a verbatim\nstring".utf8)))
            guard case .map(let pairs) = try await reply("map") else {
                Issue.record("not a map")
                return
            }
            #expect(pairs.count == 3)
            guard case .attributed(let attributes, let value) = try await reply("attrib") else {
                Issue.record("no attribute")
                return
            }
            #expect(!attributes.isEmpty)
            #expect(value.string == "Some real reply following the attribute")
            // A push goes out of band: the next reply still matches its command.
            _ = try await reply("push")
            #expect(try await client.send(RedisCommand("PING")) == .simpleString("PONG"))
        }
    }

    @Test func aServerWithoutHELLOIsSpokenToInRESP2() async throws {
        try await withRedisServer(extraConfig: ["rename-command HELLO \"\"", "user alice on >s3cret ~* &* +@all"]) {
            server in
            let client = try server.client(url: "redis://alice:s3cret@127.0.0.1:\(server.port)/2", clientName: "rk-two")
            defer { client.close() }
            #expect(try await client.send(RedisCommand("ACL", "WHOAMI")).string == "alice")
            #expect(client.protocolVersion == 2)
            #expect(try await client.send(RedisCommand("CLIENT", "GETNAME")).string == "rk-two")
            _ = try await client.send(RedisCommand("HSET", "hash", "a", "1"))
            let hash = try await client.send(RedisCommand("HGETALL", "hash"))
            #expect(hash == .array([.bulkString([97]), .bulkString([49])]))
            #expect(hash.elements?.count == 2)
            let other = try server.client()
            defer { other.close() }
            #expect(try await other.send(RedisCommand("AUTH", "alice", "s3cret")) == .simpleString("OK"))
            #expect(try await other.send(RedisCommand("EXISTS", "hash")) == .integer(0))
        }
    }

    @Test func aPipelineOfAThousandCommandsIsAnsweredInOrder() async throws {
        try await withRedisServer { server in
            let client = try server.client()
            defer { client.close() }
            let commands = (0..<1000).map { _ in RedisCommand("INCR", "n") }
            let replies = try await client.pipeline(commands)
            #expect(replies.map { try? $0.get() } == (1...1000).map { RESPValue.integer(Int64($0)) })
            let mixed = try await client.pipeline([
                RedisCommand("SET", "s", "x"), RedisCommand("LPUSH", "s", "y"), RedisCommand("GET", "s"),
            ])
            #expect(try mixed[0].get() == .simpleString("OK"))
            #expect(throws: RedisError.self) { try mixed[1].get() }
            if case .failure(let error) = mixed[1] { #expect(error.serverPrefix == "WRONGTYPE") }
            #expect(try mixed[2].get().string == "x")
        }
    }

    @Test func concurrentCallersEachGetTheirOwnReply() async throws {
        try await withRedisServer { server in
            let client = try server.client()
            defer { client.close() }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<200 {
                    group.addTask {
                        _ = try await client.send(RedisCommand("SET", "key\(index)", "value\(index)"))
                        let value = try await client.send(RedisCommand("GET", "key\(index)"))
                        #expect(value.string == "value\(index)")
                    }
                }
                try await group.waitForAll()
            }
        }
    }

    @Test func anACLUserLogsInAndAWrongPasswordIsATypedErrorWithoutThePassword() async throws {
        let config = ["user alice on >s3cret ~* &* +@all", "requirepass topsecret"]
        try await withRedisServer(extraConfig: config) { server in
            let alice = try server.client(url: "redis://alice:s3cret@127.0.0.1:\(server.port)")
            defer { alice.close() }
            #expect(try await alice.send(RedisCommand("ACL", "WHOAMI")).string == "alice")
            let passwordOnly = try server.client(url: "redis://:topsecret@127.0.0.1:\(server.port)")
            defer { passwordOnly.close() }
            #expect(try await passwordOnly.send(RedisCommand("ACL", "WHOAMI")).string == "default")

            let wrong = try server.client(url: "redis://alice:not-the-password@127.0.0.1:\(server.port)")
            defer { wrong.close() }
            let error = await #expect(throws: RedisError.self) { try await wrong.send(RedisCommand("PING")) }
            #expect(error?.code == .authFailed)
            #expect(error?.serverPrefix == "WRONGPASS")
            #expect(error.map { !"\($0)".contains("not-the-password") } == true)
            #expect(error.map { !$0.message.contains("not-the-password") } == true)

            let none = try server.client()
            defer { none.close() }
            let missing = await #expect(throws: RedisError.self) { try await none.send(RedisCommand("PING")) }
            #expect(missing?.code == .authFailed)
            #expect(missing?.message.contains("requires a password") == true)
        }
    }

    @Test func selectKeepsDatabasesApartOverTCPUnixAndIPv6() async throws {
        try await withRedisServer { server in
            let three = try server.client(url: "redis://127.0.0.1:\(server.port)/3")
            defer { three.close() }
            _ = try await three.send(RedisCommand("SET", "where", "three"))
            let unix = try server.client(url: "unix://\(server.socketPath)?db=3")
            defer { unix.close() }
            #expect(try await unix.send(RedisCommand("GET", "where")).string == "three")
            let ipv6 = try server.client(url: "redis://[::1]:\(server.port)/0")
            defer { ipv6.close() }
            #expect(try await ipv6.send(RedisCommand("GET", "where")) == .null)
            let info = try await ipv6.send(RedisCommand("CLIENT", "INFO")).string ?? ""
            #expect(info.contains("addr=[::1]") || info.contains("addr=::1"))
        }
    }

    @Test func aClientReconnectsAfterTheServerRestartsAndAOFKeepsTheData() async throws {
        try await withRedisServer { server in
            let client = try server.client()
            defer { client.close() }
            _ = try await client.send(RedisCommand("SET", "kept", "yes"))
            await server.stop(keepingFiles: true)
            #expect(await pollUntil { !client.isConnected })
            try await server.launch()
            #expect(try await client.send(RedisCommand("GET", "kept")).string == "yes")
            #expect(client.isConnected)
        }
    }

    @Test func aCommandInFlightWhenTheConnectionBreaksSaysItMayHaveExecuted() async throws {
        try await withRedisServer { server in
            let client = try server.client()
            let killer = try server.client()
            defer {
                client.close()
                killer.close()
            }
            _ = try await client.send(RedisCommand("CLIENT", "SETNAME", "victim"))
            async let blocked = outcome { () async throws(RedisError) in
                try await client.send(RedisCommand("BLPOP", "never", "0"))
            }
            #expect(
                await eventually {
                    (try? await killer.send(RedisCommand("INFO", "clients")))?.string?.contains("blocked_clients:1")
                        == true
                })
            _ = try await killer.send(RedisCommand("CLIENT", "KILL", "TYPE", "normal", "SKIPME", "yes"))
            let error = await blocked.failure
            #expect(error?.code == .connectionLost)
            #expect(error?.mayHaveExecuted == true)
            #expect(try await client.send(RedisCommand("PING")) == .simpleString("PONG"))
        }
    }

    @Test func nothingListeningIsReportedAsRefusedAfterTheAttempts() async throws {
        // Held, not just found free: another test's server could take a port found free a moment before.
        let refusing = try LoopbackRefusingPort()
        defer { refusing.close() }
        var configuration = try RedisConfiguration(url: "redis://127.0.0.1:\(refusing.port)")
        configuration.reconnect = RedisBackoff(maximumAttempts: 3, initialDelay: .milliseconds(1))
        let client = RedisClient(configuration: configuration)
        defer { client.close() }
        let error = await #expect(throws: RedisError.self) { try await client.send(RedisCommand("PING")) }
        #expect(error?.code == .connectRefused)
        #expect(error?.mayHaveExecuted == false)
    }

    @Test func aCommandTimesOutOnTheInjectedClockAgainstAStoppedServer() async throws {
        try await withRedisServer { server in
            let clock = ManualClock()
            var configuration = try RedisConfiguration(url: server.url)
            configuration.commandTimeout = .seconds(2)
            let client = RedisClient(configuration: configuration, clock: clock)
            defer { client.close() }
            #expect(try await client.send(RedisCommand("PING")) == .simpleString("PONG"))
            server.signal(SIGSTOP)
            async let reply = outcome { () async throws(RedisError) in
                try await client.send(RedisCommand("SET", "late", "1"))
            }
            await clock.waitForSleepers(count: 1)
            clock.advance(by: .seconds(2))
            let error = await reply.failure
            #expect(error?.code == .timeout)
            #expect(error?.mayHaveExecuted == true)
            #expect(!client.isConnected)
            server.signal(SIGCONT)
            #expect(try await client.send(RedisCommand("GET", "late")).string == "1")
        }
    }

    @Test func errorRepliesCarryTheirPrefix() async throws {
        try await withRedisServer { server in
            let client = try server.client()
            defer { client.close() }
            let error = await #expect(throws: RedisError.self) {
                try await client.send(RedisCommand("EVALSHA", String(repeating: "0", count: 40), "0"))
            }
            #expect(error?.code == .serverError)
            #expect(error?.serverPrefix == "NOSCRIPT")
        }
    }

    @Test func aScriptIsLoadedOnceAndAgainAfterTheServerForgotIt() async throws {
        try await withRedisServer { server in
            let client = try server.client()
            defer { client.close() }
            let script = RedisScript(name: "double", source: "return tonumber(ARGV[1]) * 2")
            #expect(try await client.evaluate(script, keys: [], arguments: ["21"]) == .integer(42))
            _ = try await client.send(RedisCommand("SCRIPT", "FLUSH"))
            #expect(try await client.evaluate(script, keys: [], arguments: ["5"]) == .integer(10))
            let failing = RedisScript(name: "failing", source: "return redis.error_reply('FENCED 7')")
            let error = await #expect(throws: RedisError.self) {
                try await client.evaluate(failing, keys: [], arguments: [])
            }
            #expect(error?.serverPrefix == "FENCED")
            #expect(error?.message.contains("the failing script") == true)
        }
    }

    @Test func aClosedClientRefusesCommandsWithATypedError() async throws {
        try await withRedisServer { server in
            let client = try server.client()
            #expect(try await client.send(RedisCommand("PING")) == .simpleString("PONG"))
            client.close()
            #expect(!client.isConnected)
            let error = await #expect(throws: RedisError.self) { try await client.send(RedisCommand("PING")) }
            #expect(error?.code == .closed)
        }
    }

    @Test func aCancelledCommandsReplyIsDroppedAndTheNextCommandGetsItsOwn() async throws {
        try await withRedisServer(extraConfig: ["enable-debug-command yes"]) { server in
            let client = try server.client()
            defer { client.close() }
            _ = try await client.send(RedisCommand("SET", "k", "v"))
            let slow = Task { () async throws(RedisError) -> RESPValue in
                try await client.send(RedisCommand("DEBUG", "SLEEP", "0.3"))
            }
            #expect(await pollUntil { client.waitingBatchCount == 1 })
            slow.cancel()
            let error = await slow.result.failure as? RedisError
            #expect(error?.code == .cancelled)
            #expect(error?.mayHaveExecuted == true)
            #expect(try await client.send(RedisCommand("GET", "k")).string == "v")
            #expect(client.isConnected)
        }
    }
}
