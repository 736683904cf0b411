import Foundation
import ResolveKit
import ResolveKitHTTP
import ResolveKitRedis
import ResolveKitTesting
import Synchronization

/// The soak's world: a reference backend on a loopback port, a real `redis-server` holding the state, one runtime
/// at a time as one of two replicas (a restart is a new runtime of the same replica; a replica kill takes the key
/// over as the other one), and a driver that moves the shared manual clock to the next timer whenever everything
/// has gone quiet.
final class SoakWorld {
    static let replicas = ["replica-a", "replica-b"]

    let backend: ReferenceBackend
    let server: LoopbackHTTPServer
    let redis: RedisServerProcess
    let admin: RedisClient
    let prefix = "rk:soak-" + UUID().uuidString.prefix(8).lowercased()
    let deviceID = "soak-device-" + UUID().uuidString
    let apiKey: String
    let clock = SoakTools.clock
    /// The replica the runtime runs as.
    private(set) var replica = replicas[0]
    private(set) var runtime: ResolveKitRuntime
    private var listener: Task<Void, Never>?
    /// Every session the runtimes opened, in order.
    let sessions = SoakSessions()

    private init(backend: ReferenceBackend, server: LoopbackHTTPServer, redis: RedisServerProcess, apiKey: String)
        throws
    {
        self.apiKey = apiKey
        self.backend = backend
        self.server = server
        self.redis = redis
        admin = RedisClient(configuration: try RedisConfiguration(url: redis.url))
        runtime = ResolveKitRuntime(configuration: ResolveKitConfiguration(apiKeyProvider: { nil }))
        runtime = makeRuntime()
    }

    static func make(faults: FaultPlan) async throws -> SoakWorld {
        let redis = try await RedisServerProcess.start(
            extraConfig: replicas.map { "user \($0) on >pw-\($0) ~* &* +@all" })
        do {
            let apiKey = "rk_soak_secret_" + UUID().uuidString
            let backend = ReferenceBackend(
                configuration: ReferenceBackend.Configuration(
                    apiKeys: [apiKey], eventIDStyle: .numeric, script: SoakTools.script, faults: faults,
                    clock: SoakTools.clock))
            let server = try LoopbackHTTPServer.start(handler: SoakActivity.shared.observing(backend.handler))
            return try SoakWorld(backend: backend, server: server, redis: redis, apiKey: apiKey)
        } catch {
            await redis.stop()
            throw error
        }
    }

    private func makeRuntime() -> ResolveKitRuntime {
        let key = apiKey
        let device = deviceID
        var configuration = ResolveKitConfiguration(
            baseURL: URL(string: server.baseURL)!, apiKeyProvider: { key }, deviceIDProvider: { device },
            functions: SoakTools.all, approver: AutoApprover(), logger: SoakActivity.shared.logger,
            stateLocation: .redis(
                URL(string: "redis://\(replica):pw-\(replica)@127.0.0.1:\(redis.port)/0")!, prefix: prefix),
            programName: "soak", streamIdleTimeout: .seconds(45), clock: ResolveKitClock(clock))
        // Leases run on real time; a short one keeps a replica kill's wait short.
        configuration.replica = ReplicaSettings(name: replica, leaseDuration: .seconds(1), sweepInterval: nil)
        configuration.network.observer = { exchange in SoakActivity.shared.note("\(exchange)") }
        return ResolveKitRuntime(configuration: configuration)
    }

    /// A replica kill: Redis stops letting the runtime's replica in (it can neither renew its lease nor write) and
    /// the runtime stops at once, its lease left to run out; then the other replica takes the key over, waiting
    /// (real time) until that lease has ended. `false` when the new runtime did not come up.
    func killReplica() async -> Bool {
        let dead = replica
        _ = try? await admin.send(RedisCommand("ACL", "SETUSER", dead, "off"))
        _ = try? await admin.send(RedisCommand("CLIENT", "KILL", "USER", dead))
        await stopRuntime()
        replica = Self.replicas.first { $0 != dead }!
        _ = try? await admin.send(RedisCommand("ACL", "SETUSER", replica, "on"))
        let deadline = ContinuousClock.now.advanced(by: .seconds(10))
        while ContinuousClock.now < deadline, !Task.isCancelled {
            runtime = makeRuntime()
            if await startRuntime() { return true }
            await stopRuntime()
            try? await Task.sleep(for: .milliseconds(100))
        }
        return false
    }

    /// What Redis holds for the soak's key: journal entries and calls not settled.
    func storedJournal() async -> (entries: Int, unsettled: Int)? {
        guard let state = try? await RedisLeaseStore(client: admin, prefix: prefix).read("soak") else { return nil }
        return (state.journal.count, state.undelivered.count)
    }

    /// Starts the first runtime. In a full test run that happens in its busiest seconds, where a loopback answer can
    /// take longer than the quiet spell after which ``startRuntime()`` moves the clock, and the jump then times the
    /// request out (CI once saw two 15 s timeouts fire that way and the start give up). A start that failed is tried
    /// again with a fresh runtime for up to 10 s of real time, as a replica takeover is; a start that cannot succeed
    /// still fails.
    func startFirstRuntime() async -> Bool {
        let deadline = ContinuousClock.now.advanced(by: .seconds(10))
        while true {
            if await startRuntime() { return true }
            await stopRuntime()
            guard ContinuousClock.now < deadline, !Task.isCancelled else { return false }
            runtime = makeRuntime()
            try? await Task.sleep(for: .milliseconds(100))
        }
    }

    /// Starts the current runtime, moving the clock through setup retries; `false` if it did not become active.
    func startRuntime() async -> Bool {
        let runtime = self.runtime
        let events = runtime.events
        let sessions = self.sessions
        listener = Task {
            for await event in events {
                SoakActivity.shared.bump()
                if case .sessionStarted(let id, _) = event { sessions.add(id) }
            }
        }
        let started = Mutex<Bool?>(nil)
        let task = Task {
            let ok = (try? await runtime.start()) != nil
            started.withLock { $0 = ok }
            SoakActivity.shared.bump()
        }
        // Starting needs a timer only to back off after a failure: move the clock only after a long quiet spell.
        let settled = await settle(quiet: .seconds(1)) { started.withLock { $0 } != nil }
        if !settled { task.cancel() }
        return settled && started.withLock { $0 } == true
    }

    /// A process restart: the runtime stops (running calls are cancelled, results stay in the journal) and a new
    /// one starts on the same state folder and device.
    func restartRuntime() async -> Bool {
        await stopRuntime()
        runtime = makeRuntime()
        return await startRuntime()
    }

    func stopRuntime() async {
        await runtime.stop()
        listener?.cancel()
        listener = nil
    }

    /// Sends a message, moving the clock through retries; `nil` when sending did not finish in time.
    func send(_ text: String) async -> ResolveKitSendOutcome? {
        let runtime = self.runtime
        let outcome = Mutex<ResolveKitSendOutcome?>(nil)
        let task = Task {
            let result = await runtime.sendMessage(text)
            outcome.withLock { $0 = result }
            SoakActivity.shared.bump()
        }
        guard await settle(until: { outcome.withLock { $0 } != nil }) else {
            task.cancel()
            return nil
        }
        return outcome.withLock { $0 }
    }

    /// Waits until `condition` holds. Whenever nothing has happened for a while (real time), the only way on is
    /// a timer, so the manual clock jumps to the earliest pending deadline. `false` when the real or the manual
    /// bound ran out first.
    ///
    /// "A while" is 100 ms: long enough that a busy machine (the whole suite runs in parallel on two cores) does not
    /// look idle halfway through an HTTP exchange, which would fire timers early.
    func settle(
        realBound: Duration = .seconds(30), manualBound: Duration = .seconds(1800),
        quiet: Duration = .milliseconds(100),
        until condition: () -> Bool
    ) async -> Bool {
        let real = ContinuousClock()
        let realDeadline = real.now.advanced(by: realBound)
        let manualDeadline = clock.now.advanced(by: manualBound)
        var lastSeen = SoakActivity.shared.current
        var quietSince = real.now
        // The condition must hold once nothing has happened for a moment: read between an event's arrival and its
        // handling (a call replayed right after the stream reopened), it is not yet settled.
        while !(condition() && real.now - quietSince >= .milliseconds(10)) {
            guard real.now < realDeadline, clock.now < manualDeadline, !Task.isCancelled else { return false }
            try? await Task.sleep(for: .milliseconds(2))
            let activity = SoakActivity.shared.current
            if activity != lastSeen {
                lastSeen = activity
                quietSince = real.now
            } else if real.now - quietSince >= quiet {
                if let next = clock.pendingDeadlines.first {
                    SoakActivity.shared.note("clock \(clock.now) -> \(next) after \(real.now - quietSince) quiet")
                    lastSeen = SoakActivity.shared.current
                    clock.advance(to: next)
                }
                quietSince = real.now
            }
        }
        return true
    }

    func shutdown() async {
        await stopRuntime()
        backend.configuration.faults.reset()
        await backend.stop()
        await server.stop()
        admin.close()
        await redis.stop()
    }
}

/// The sessions the runtimes opened, in order.
final class SoakSessions: Sendable {
    private let ids = Mutex<[String]>([])

    func add(_ id: String) { ids.withLock { if !$0.contains(id) { $0.append(id) } } }
    var all: [String] { ids.withLock { $0 } }
}
