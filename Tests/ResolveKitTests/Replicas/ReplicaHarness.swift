import Foundation
import ResolveKit
import ResolveKitRedis
import ResolveKitTelemetry
import ResolveKitTesting
import Testing

/// A real `redis-server` (AOF on) with one ACL user per replica, a reference backend on a loopback port, and
/// runtimes or hosts that share users through Redis, each as a replica of its own. Killing a replica turns its Redis
/// user off and drops its connections, so it can neither renew its leases nor write: what Redis sees of a process
/// that died. Torn down on every exit path.
struct ReplicaHarness: Sendable {
    static let replicas = ["replica-a", "replica-b", "replica-c"]

    let redis: RedisServerProcess
    let admin: RedisClient
    let backend: ReferenceBackend
    let server: LoopbackHTTPServer
    /// The app's key prefix: fresh for each test.
    let prefix: String

    static func run(
        _ configuration: ReferenceBackend.Configuration = ReferenceBackend.Configuration(script: ReplicaTools.script),
        _ body: (ReplicaHarness) async throws -> Void
    ) async throws {
        let users = replicas.map { "user \($0) on >pw-\($0) ~* &* +@all" }
        try await withRedisServer(extraConfig: users) { redis in
            let backend = ReferenceBackend(configuration: configuration)
            let server = try LoopbackHTTPServer.start(handler: backend.handler)
            let admin = RedisClient(configuration: try RedisConfiguration(url: redis.url))
            let harness = ReplicaHarness(
                redis: redis, admin: admin, backend: backend, server: server,
                prefix: "rk:test-" + UUID().uuidString.prefix(8).lowercased())
            do {
                try await body(harness)
            } catch {
                admin.close()
                await backend.stop()
                await server.stop()
                throw error
            }
            admin.close()
            await backend.stop()
            await server.stop()
        }
    }

    /// The Redis URL `replica` logs in with.
    func url(_ replica: String) -> URL {
        URL(string: "redis://\(replica):pw-\(replica)@127.0.0.1:\(redis.port)/0")!
    }

    /// A configuration for `replica`: the test tools, Redis state, a short lease and a quick sweep.
    func configuration(
        _ replica: String, approver: any ToolApprover = AutoApprover(), lease: Duration = .seconds(1),
        functions: [any AnyResolveKitFunction.Type] = ReplicaTools.all
    ) -> ResolveKitConfiguration {
        var configuration = ResolveKitConfiguration(
            baseURL: URL(string: server.baseURL)!, apiKeyProvider: { "rk_dev" }, functions: functions,
            approver: approver, stateLocation: .redis(url(replica), prefix: prefix), programName: "replica-test",
            streamIdleTimeout: .seconds(3600))
        configuration.replica = ReplicaSettings(
            name: replica, leaseDuration: lease, sweepInterval: .milliseconds(100), commandTimeout: .seconds(1))
        return configuration
    }

    /// A host as `replica`; with `metrics`, its telemetry's registry counts what it records (no spans).
    func host(_ replica: String, lease: Duration = .seconds(1), metrics: MetricsRegistry? = nil) -> ResolveKitHost {
        var configuration = configuration(replica, lease: lease)
        if let metrics {
            configuration.telemetry = try? Telemetry(
                configuration: TelemetryConfiguration(resource: TelemetryResource(serviceName: replica)),
                transport: PlainHTTPTransport(), registry: metrics)
        }
        return ResolveKitHost(configuration: configuration, options: .init(idleTimeout: nil))
    }

    /// The line of `registry`'s Prometheus text that starts with `series` (its name and labels), if any.
    static func metricLine(_ series: String, in registry: MetricsRegistry) -> String? {
        String(decoding: registry.exposition(), as: UTF8.self).split(separator: "\n")
            .first { $0.hasPrefix(series + " ") }.map(String.init)
    }

    /// What Redis sees when `replica`'s process dies: its user is switched off and its connections dropped, so it
    /// renews and writes nothing more and its leases run out.
    func kill(_ replica: String) async throws {
        try await admin.send(RedisCommand("ACL", "SETUSER", replica, "off"))
        try await admin.send(RedisCommand("CLIENT", "KILL", "USER", replica))
    }

    /// Lets `replica` log in again (a process of that name started again).
    func revive(_ replica: String) async throws {
        try await admin.send(RedisCommand("ACL", "SETUSER", replica, "on"))
    }

    /// Everything stored for `userKey` under this test's prefix.
    func stored(_ userKey: String) async throws -> RedisStoredState {
        try await RedisLeaseStore(client: admin, prefix: prefix).read(userKey)
    }

    /// Waits (bounded, real time) until `condition` holds.
    func eventually(timeout: Duration = .seconds(15), _ condition: () async -> Bool) async -> Bool {
        let deadline = ContinuousClock.now.advanced(by: timeout)
        while await !condition() {
            guard ContinuousClock.now < deadline, !Task.isCancelled else { return false }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return true
    }
}

/// The functions of the replica tests: each counts its runs in ``ExecutionLedger`` (every replica of a test lives in
/// this process), and `hold` runs until it is cancelled, so a replica can die in the middle of it.
enum ReplicaTools {
    struct Hold: AnyResolveKitFunction {
        static let resolveKitName = "hold"
        static let resolveKitDescription = "Runs until cancelled."
        static let resolveKitRequiresApproval = false
        static let resolveKitTimeoutSeconds: Int? = 60
        static let resolveKitParametersSchema: JSONObject = ["type": "object"]
        static func invoke(arguments: JSONObject, context: ResolveKitFunctionContext) async throws -> JSONValue {
            ExecutionLedger.shared.record(context)
            try await Task.sleep(for: .seconds(3600))
            return "released"
        }
    }

    static let all: [any AnyResolveKitFunction.Type] = TestTools.all + [Hold.self]

    static let script = AgentScript(
        rules: [.init(.keywords(["hold"]), rounds: [.toolCalls([.init("hold")]), .text("held: {result}")])]
            + TestTools.rules)
}
