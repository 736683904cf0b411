import Foundation
import Glibc
import ResolveKit
import ResolveKitChildProcess
import ResolveKitRedis
import ResolveKitTesting

/// `replicas`: what sharing users through Redis costs and how fast a dead replica's users are taken over.
/// - `takeover-gap`: a replica (a child process) is killed with SIGKILL in the middle of a call; from the kill to the
///   backend accepting the call's result (reported interrupted) from the replica that took the user over (this
///   process's host, whose sweep finds the key once the dead lease ran out), with a 5 s lease. Target: under the
///   lease + 1 s.
/// - `redis-round-trips-per-call`: the scripts Redis ran for one runtime's client (`EVALSHA` in
///   `INFO commandstats`; the client sends nothing else per call, and each is one round trip) while it answered the
///   measured calls, per call: the three fenced journal writes, and the cursor writes and lease renewals shared out.
///   Target: at most 3.
/// - `call-dispatch-*`, `result-post-*`: `tool-latency` with the file store, and with the Redis store (AOF with
///   `appendfsync everysec`, and `always`), in one run. Target: p99 within 1 ms of the file store's.
struct ReplicasWorkload: Workload {
    let name = "replicas"
    let summary =
        "takeover gap after SIGKILL (ms), Redis commands per tool call, tool-latency: Redis store vs file store (us)"
    static let kills = 12
    static let lease = Duration.seconds(5)
    static let question = "bench takeover"

    /// The configuration of every replica of the takeover: a call that holds until its process dies, Redis state, a
    /// 5 s lease.
    static func configuration(base: URL, redis: URL, prefix: String, replica: String) -> ResolveKitConfiguration {
        var configuration = ResolveKitConfiguration(
            baseURL: base, apiKeyProvider: { "rk_bench" }, functions: [Hold.self],
            stateLocation: .redis(redis, prefix: prefix))
        configuration.replica = ReplicaSettings(name: replica, leaseDuration: lease)
        return configuration
    }

    func run(log: @Sendable (String) -> Void) async throws(BenchFailure) -> [Measurement] {
        do {
            return try await measure(log: log)
        } catch let error as BenchFailure {
            throw error
        } catch {
            throw BenchFailure(message: "replicas: \(error)")
        }
    }

    private func measure(log: @Sendable (String) -> Void) async throws -> [Measurement] {
        let script = AgentScript(rules: [
            .init(.keywords(["bench"]), rounds: [.toolCalls([.init("bench_hold")]), .text("done")])
        ])
        let backend = ReferenceBackend(configuration: .init(apiKeys: ["rk_bench"], script: script))
        let server = try LoopbackHTTPServer.start(handler: backend.handler)
        var rows: [Measurement] = []
        let redis = try await RedisServerProcess.start(fsync: "everysec")
        do {
            rows.append(try await takeoverGap(backend, server, redis, log: log))
            await redis.stop()
            rows += try await latencies(backend, server, log: log)
        } catch {
            await redis.stop()
            await backend.stop()
            await server.stop()
            throw error
        }
        await backend.stop()
        await server.stop()
        return rows
    }

    /// Kills a replica in the middle of a call, `kills` times, and times the takeover.
    private func takeoverGap(
        _ backend: ReferenceBackend, _ server: LoopbackHTTPServer, _ redis: RedisServerProcess,
        log: @Sendable (String) -> Void
    ) async throws -> Measurement {
        let prefix = "rk:bench-takeover"
        let redisURL = URL(string: redis.url)!
        let host = ResolveKitHost(
            configuration: Self.configuration(
                base: URL(string: server.baseURL)!, redis: redisURL, prefix: prefix, replica: "new-owner"),
            options: .init(idleTimeout: nil))
        // A session of its own starts the host's sweep, as a serving replica's would be running.
        _ = try await host.session(for: "warm")
        let admin = RedisClient(configuration: try RedisConfiguration(url: redis.url))
        defer { admin.close() }
        let leases = RedisLeaseStore(client: admin, prefix: prefix)
        var gaps: [Double] = []
        for index in 0..<Self.kills {
            let user = "user-\(index)"
            let child = try ChildProcess.spawn(
                "/proc/self/exe",
                arguments: [ReplicaChild.flag, server.baseURL, redis.url, prefix, "dying-\(index)", user],
                standardInput: .nullDevice, standardOutput: .nullDevice, standardError: .nullDevice)
            guard let callID = await Self.runningCall(of: user, in: leases) else {
                child.send(SIGKILL)
                throw BenchFailure(message: "replicas: the child replica started no call in 60 s")
            }
            let killedAt = ContinuousClock.now
            child.send(SIGKILL)
            _ = child.waitUntilExit()
            while backend.counters.toolResults[callID]?.accepted != 1 {
                guard killedAt.duration(to: .now) < .seconds(60) else {
                    throw BenchFailure(message: "replicas: the result of \(callID) was not delivered in 60 s")
                }
                try await Task.sleep(for: .milliseconds(1))
            }
            gaps.append(killedAt.duration(to: .now).inSeconds * 1000)
            let holder = try await leases.read(user).holder
            guard holder?.hasPrefix("new-owner#") == true else {
                let state = (try? await host.session(for: user)).map { "\($0.connectionState)" } ?? "no session"
                throw BenchFailure(
                    message:
                        "replicas: \(user) was not taken over by this process's host (held by \(holder ?? "no one"), "
                        + "open here: \(host.openSessionKeys.contains(user)), \(state))")
            }
        }
        await host.drain(timeout: .seconds(5))
        log("replicas: \(Self.kills) replicas killed in the middle of a call, lease \(Self.lease), sweep 500 ms")
        var row = ToolLatencyWorkload.row(name, "takeover-gap", gaps)
        row.unit = "ms"
        row.details["lease_ms"] = Self.lease.inSeconds * 1000
        return row
    }

    /// The call id of `user`'s journal entry once one is handed on to run.
    private static func runningCall(of user: String, in leases: RedisLeaseStore) async -> String? {
        let deadline = ContinuousClock.now.advanced(by: .seconds(60))
        while ContinuousClock.now < deadline {
            let journal = (try? await leases.read(user))?.journal ?? [:]
            for line in journal.values {
                guard let entry = try? JSONValue(parsing: line), entry["status"]?.stringValue == "running" else {
                    continue
                }
                return entry["call_id"]?.stringValue
            }
            try? await Task.sleep(for: .milliseconds(2))
        }
        return nil
    }

    /// `tool-latency` with the file store and the Redis store in one run, and Redis' commands per call.
    private func latencies(
        _ backend: ReferenceBackend, _ server: LoopbackHTTPServer, log: @Sendable (String) -> Void
    ) async throws -> [Measurement] {
        let folder = NSTemporaryDirectory() + "rk-bench-replicas-\(getpid())"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = try await ToolLatencyWorkload.calls(backend, server, state: .directory(folder))
        var rows = [
            ToolLatencyWorkload.row(name, "call-dispatch-file", file.dispatch),
            ToolLatencyWorkload.row(name, "result-post-file", file.posting),
        ]
        for fsync in ["everysec", "always"] {
            let redis = try await RedisServerProcess.start(fsync: fsync)
            do {
                rows += try await redisLatencies(backend, server, redis, fsync: fsync)
                await redis.stop()
            } catch {
                await redis.stop()
                throw error
            }
        }
        log(
            "replicas: tool-latency \(ToolLatencyWorkload.iterations) calls per store after "
                + "\(ToolLatencyWorkload.warmUp) warm-up calls")
        return rows
    }

    /// `tool-latency` with the Redis store on `redis`, and (with `everysec`) the round trips per call.
    private func redisLatencies(
        _ backend: ReferenceBackend, _ server: LoopbackHTTPServer, _ redis: RedisServerProcess, fsync: String
    ) async throws -> [Measurement] {
        let admin = RedisClient(configuration: try RedisConfiguration(url: redis.url))
        defer { admin.close() }
        var before = 0
        var scripts = 0
        let timed = try await ToolLatencyWorkload.calls(
            backend, server, state: .redis(URL(string: redis.url)!, prefix: "rk:bench-latency"),
            replica: ReplicaSettings(name: "bench"),
            beforeMeasuring: { before = try await Self.scriptCount(admin) },
            afterMeasuring: { scripts = try await Self.scriptCount(admin) - before })
        var rows = [
            ToolLatencyWorkload.row(name, "call-dispatch-redis-\(fsync)", timed.dispatch),
            ToolLatencyWorkload.row(name, "result-post-redis-\(fsync)", timed.posting),
        ]
        if fsync == "everysec" {
            let perCall = Double(scripts) / Double(ToolLatencyWorkload.iterations)
            rows.append(
                Measurement(
                    workload: name, contender: "redis-round-trips-per-call", chunk: nil, value: perCall,
                    unit: "round trips", details: ["n": Double(ToolLatencyWorkload.iterations)]))
        }
        return rows
    }

    /// How many scripts Redis has run (`EVALSHA`, from `INFO commandstats`). The commands a script calls are counted
    /// under their own names, so only the scripts are the clients' round trips.
    private static func scriptCount(_ admin: RedisClient) async throws -> Int {
        let text = try await admin.send(RedisCommand("INFO", "commandstats")).string ?? ""
        // cmdstat_evalsha:calls=6003,usec=…,usec_per_call=…,rejected_calls=0,failed_calls=0
        guard let line = text.split(whereSeparator: \.isNewline).first(where: { $0.hasPrefix("cmdstat_evalsha:") }),
            let calls = line.dropFirst("cmdstat_evalsha:".count).split(separator: ",").first?.dropFirst("calls=".count)
        else { return 0 }
        return Int(calls) ?? 0
    }
}

/// The call a replica is killed in the middle of: it runs until its process dies.
struct Hold: AnyResolveKitFunction {
    static let resolveKitName = "bench_hold"
    static let resolveKitDescription = "Runs until the process is killed."
    static let resolveKitRequiresApproval = false
    static let resolveKitTimeoutSeconds: Int? = 120
    static let resolveKitParametersSchema: JSONObject = ["type": "object"]

    static func invoke(arguments: JSONObject, context: ResolveKitFunctionContext) async throws -> JSONValue {
        try await Task.sleep(for: .seconds(3600))
        return "released"
    }
}
