import Foundation
import Glibc
import ResolveKitTesting
import Synchronization
import Testing

/// `rk-service` replicas sharing users through one real `redis-server` (AOF on, an fsync per write) against the
/// reference backend in this process, and a router in front of them as a load balancer would be: a user's line goes
/// to the replica that last served the user, follows a `key_owned_elsewhere` answer to the replica it names, and
/// goes to another replica when the one it tried stops answering.
///
/// Each replica runs at `--log-level debug`, whose `function started` line is written as each function begins:
/// the executions of every call, across every process, are counted from the replicas' stderr.
final class ReplicaCluster: Sendable {
    static let apiKey = "rk_test_secret_7f3c91"

    let redis: RedisServerProcess
    let backend: ReferenceBackend
    let server: LoopbackHTTPServer
    let prefix = "rk:replicas-" + UUID().uuidString.prefix(8).lowercased()
    private let state = Mutex<(replicas: [String: ServiceProcess], dead: Set<String>, owners: [String: String])>(
        ([:], [], [:]))
    private let counter = Atomic<Int>(0)

    private init(redis: RedisServerProcess, backend: ReferenceBackend, server: LoopbackHTTPServer) {
        self.redis = redis
        self.backend = backend
        self.server = server
    }

    /// Runs `body` with Redis, a backend and no replica yet; everything is stopped on every exit path.
    static func run(_ body: (ReplicaCluster) async throws -> Void) async throws {
        let redis = try await RedisServerProcess.start()
        let backend = ReferenceBackend(configuration: ReferenceBackend.Configuration(apiKeys: [apiKey]))
        let server: LoopbackHTTPServer
        do {
            server = try LoopbackHTTPServer.start(handler: backend.handler)
        } catch {
            await redis.stop()
            throw error
        }
        let cluster = ReplicaCluster(redis: redis, backend: backend, server: server)
        do {
            try await body(cluster)
        } catch {
            await cluster.tearDown()
            throw error
        }
        await cluster.tearDown()
    }

    private func tearDown() async {
        for (_, replica) in state.withLock({ $0.replicas }) {
            replica.signal(SIGCONT)
            replica.signal(SIGKILL)
            _ = await replica.exitStatus(timeout: .seconds(10))
        }
        backend.configuration.faults.reset()
        await backend.stop()
        await server.stop()
        await redis.stop()
    }

    /// Starts replica `name` and waits until it is ready (connected, its own session open).
    @discardableResult
    func launch(_ name: String) async throws -> ServiceProcess {
        var environment = ServiceProcess.cleanEnvironment
        environment["RESOLVEKIT_API_KEY"] = Self.apiKey
        let process = try ServiceProcess(
            [
                "--base-url", server.baseURL, "--state", redis.url, "--state-prefix", prefix, "--replica-name", name,
                "--log-level", "debug", "--idle-close", "0",
            ], environment: environment)
        state.withLock { state in
            state.replicas[name] = process
            state.dead.remove(name)
        }
        #expect(
            await process.waitFor(\.stderr) { $0.contains(#"msg="ready""#) }, "\(name) did not start: \(process.stderr)"
        )
        return process
    }

    func replica(_ name: String) -> ServiceProcess { state.withLock { $0.replicas[name]! } }

    /// Kills replica `name` with SIGKILL; the router stops sending it lines.
    func kill(_ name: String) async {
        let process = replica(name)
        process.signal(SIGKILL)
        _ = await process.exitStatus()
        state.withLock { _ = $0.dead.insert(name) }
    }

    /// Asks `text` as `user` through the router, starting at `first` (else the replica that last served the user,
    /// else the first live one), and returns the answer line with the replica that gave it.
    func ask(_ user: String, _ text: String, first: String? = nil) async throws -> (answer: [String: Any], by: String) {
        var target = first ?? state.withLock { $0.owners[user] } ?? liveReplicas.first!
        for _ in 0..<40 {
            if !liveReplicas.contains(target), let live = liveReplicas.first { target = live }
            let id = "\(user)-\(counter.add(1, ordering: .relaxed).newValue)"
            let line = try JSONSerialization.data(withJSONObject: ["id": id, "user": user, "message": text])
            let process = replica(target)
            process.send(String(decoding: line, as: UTF8.self))
            guard let answer = await answer(id: id, from: process, timeout: .seconds(40)) else {
                // No answer: the replica is stopped or dead; another one takes the user once its lease ends.
                target = liveReplicas.first { $0 != target } ?? target
                continue
            }
            if answer["code"] as? String == "key_owned_elsewhere" {
                let owner = answer["owner"] as? String ?? target
                if owner != target, liveReplicas.contains(owner) {
                    target = owner
                } else {
                    let wait = (answer["retry_after_ms"] as? Double).map { min($0, 6000) } ?? 500
                    try await Task.sleep(for: .milliseconds(Int(wait) + 50))
                }
                continue
            }
            state.withLock { $0.owners[user] = target }
            return (answer, target)
        }
        Issue.record("\(user) was not answered")
        return ([:], target)
    }

    /// Sends a line without waiting for its answer; returns its id.
    func send(_ user: String, _ text: String, to name: String) throws -> String {
        let id = "\(user)-\(counter.add(1, ordering: .relaxed).newValue)"
        let line = try JSONSerialization.data(withJSONObject: ["id": id, "user": user, "message": text])
        replica(name).send(String(decoding: line, as: UTF8.self))
        state.withLock { $0.owners[user] = name }
        return id
    }

    var liveReplicas: [String] {
        state.withLock { state in state.replicas.keys.filter { !state.dead.contains($0) }.sorted() }
    }

    /// The answer line with `id` from `process`, or `nil` after `timeout`.
    func answer(id: String, from process: ServiceProcess, timeout: Duration) async -> [String: Any]? {
        let marker = "\"id\":\"\(id)\""
        guard await process.waitFor(timeout: timeout, { $0.contains(marker) }) else { return nil }
        guard let line = process.stdoutLines.first(where: { $0.contains(marker) }) else { return nil }
        return (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
    }

    /// Call id → how many times a function began for it, over every replica this test started.
    var executions: [String: Int] {
        var counts: [String: Int] = [:]
        for process in state.withLock({ Array($0.replicas.values) }) {
            for callID in Self.startedCalls(process.stderr) { counts[callID, default: 0] += 1 }
        }
        return counts
    }

    /// Waits (bounded) until replica `name` logged a function start, and returns the last call id it started.
    func startedCall(on name: String, timeout: Duration = .seconds(30)) async -> String? {
        let process = replica(name)
        _ = await process.waitFor(\.stderr, timeout: timeout) { !Self.startedCalls($0).isEmpty }
        return Self.startedCalls(process.stderr).last
    }

    /// The call ids of the `function started` lines in a replica's log, in order.
    static func startedCalls(_ log: String) -> [String] {
        log.split(separator: "\n").filter { $0.contains(#"msg="function started""#) }.compactMap { line in
            line.range(of: "call_id=").map { String(line[$0.upperBound...].prefix { $0 != " " }) }
        }
    }

    /// Every call the backend issued ran at most once and has exactly one accepted result (none was lost, none
    /// posted twice, none left to time out).
    func checkExactlyOnce() {
        let counters = backend.counters
        for (callID, count) in executions { #expect(count == 1, "call \(callID) ran \(count) times") }
        #expect(counters.toolResults.count == counters.toolCallsEmitted, "calls without a result: \(counters)")
        #expect(counters.timedOutCalls.isEmpty, "calls the backend stopped waiting for: \(counters.timedOutCalls)")
        for (callID, results) in counters.toolResults {
            #expect(results.accepted == 1, "call \(callID): \(results.accepted) results accepted")
        }
    }
}
