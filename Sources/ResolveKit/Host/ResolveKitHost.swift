public import ResolveKitHTTP
import ResolveKitCore
import ResolveKitTelemetry
import Synchronization

/// Many sessions in one process, one per key you choose (a user, a tenant, a chat): registers the functions once,
/// opens a key's session on first use, runs each key's turns in order and different keys' in parallel, closes
/// sessions that sit idle and resumes them by cursor on their next use.
///
/// ```swift
/// let host = ResolveKitHost(configuration: configuration, options: .init(maxOpenSessions: 500))
/// let answer = try await host.ask("Is the disk full?", as: "user-42")
/// await host.drain(timeout: .seconds(10))
/// ```
/// Each key has its own device id, session, cursor and call journal in a subfolder of the state folder named by
/// the SHA-256 of the key (never the key itself); the folder belongs to this host from its first key until it is
/// drained (a second host or runtime on it is refused with ``ResolveKitError/Code/stateLocked``). With
/// ``ResolveKitConfiguration/StateLocation/inMemory`` a key whose session closed starts a new one. With
/// ``ResolveKitConfiguration/StateLocation/redis(_:prefix:)`` the keys are shared by every replica of the app: a key
/// is served by the replica holding its lease (another replica is refused with
/// ``ResolveKitError/Code/keyOwnedElsewhere`` naming it), and the host sweeps for keys a dead replica left with calls
/// unsettled, takes them over and delivers their results.
/// Every session shares one ``HTTPClient`` (one curl thread and connection pool).
public final class ResolveKitHost: Sendable {
    /// The configuration every session starts from.
    public let configuration: ResolveKitConfiguration
    /// How sessions are opened, capped and closed.
    public let options: Options
    let http: HTTPClient
    let registration = FunctionRegistration()
    /// Built once: every session has the same functions.
    let registry: Result<ResolveKitRegistry, ResolveKitRegistryError>
    private let table = Mutex(SessionTable<ResolveKitRuntime, Task<Void, Never>>())
    private let sweeper = Mutex<Task<Void, Never>?>(nil)
    let folderLock = Mutex(FolderLock.notTaken)
    /// The sweep for keys a dead replica left (Redis state only), and the keys it is taking over.
    let orphanSweep = Mutex<(task: Task<Void, Never>?, takingOver: Set<String>)>((nil, []))
    /// The delivery of what the last process on the state folder left undelivered (folder state only).
    let recovery = Mutex(Recovery())
    /// The calls of every session waiting for approval, decided from any task; remembered decisions are the
    /// host's, kept in its state folder (with Redis state, the app's, shared by every replica).
    public let approvals: ToolApprovals

    /// Creates a host; nothing connects until the first key is used.
    /// - Parameters:
    ///   - configuration: what every session connects to and how it behaves; its `deviceIDProvider` and
    ///     `stateLocation` folder are replaced per key.
    ///   - options: the cap, the idle time and the per-key dependencies.
    ///   - httpClient: the client for every session; ``ResolveKitRuntime/sharedHTTPClient`` by default.
    public init(configuration: ResolveKitConfiguration, options: Options = Options(), httpClient: HTTPClient? = nil) {
        self.configuration = configuration
        self.options = options
        self.http = httpClient ?? ResolveKitRuntime.sharedHTTPClient
        self.registry = ResolveKitRuntime.makeRegistry(configuration)
        self.approvals = ToolApprovals.make(for: configuration, registry: try? registry.get())
    }

    deinit {
        sweeper.withLock { $0?.cancel() }
        orphanSweep.withLock { $0.task?.cancel() }
        recovery.withLock { $0.scan?.cancel() }
    }

    /// The keys whose session is open now.
    public var openSessionKeys: [String] { table.withLock { $0.openKeys } }

    /// Asks as `key` and waits for the answer (see ``ResolveKitRuntime/ask(_:timeout:parent:)``), opening the key's
    /// session first if needed. A key's asks run one after another; different keys' run at once.
    /// - Throws: ``ResolveKitError``: what starting the session throws (`stateLocked` when another process has
    ///   the key open), what `ask` throws, and `cancelled` once the host was drained.
    public func ask(
        _ text: String, as key: String, timeout: Duration? = nil, parent: SpanContext? = nil
    ) async throws(ResolveKitError) -> ResolveKitTurnResult {
        let runtime = try await checkOut(key)
        defer { checkIn(key) }
        return try await runtime.ask(text, timeout: timeout, parent: parent)
    }

    /// The metrics of every session (the configuration's ``ResolveKitConfiguration/telemetry`` registry) for a
    /// host that serves `/metrics` with its own HTTP server: the Prometheus text format, or OpenMetrics when
    /// `accept` (the scraper's `Accept` header) asks for it, with the `Content-Type` to answer with. `nil` when the
    /// configuration has no telemetry.
    public func metricsText(accept: String?) -> (contentType: String, body: [UInt8])? {
        configuration.telemetry?.registry.exposition(accept: accept)
    }

    /// The key's runtime, started, for the whole runtime API (events, `sendMessage`, `setLocale`, …).
    ///
    /// The host may close it once it is idle (then its calls throw ``ResolveKitError/Code/notStarted``); call
    /// this again for each use rather than keeping it.
    /// - Throws: ``ResolveKitError``: what ``ResolveKitRuntime/start()`` throws, or `cancelled` once drained.
    public func session(for key: String) async throws(ResolveKitError) -> ResolveKitRuntime {
        let runtime = try await checkOut(key)
        checkIn(key)
        return runtime
    }

    /// Closes the key's session: its pending results are delivered (at most ``Options/closeTimeout``), its stream
    /// closes, its folder is unlocked. The next use opens it again. Does nothing while the key is in use.
    public func close(_ key: String) async {
        guard let runtime = table.withLock({ $0.remove(key) }) else { return }
        await startClosing(key, runtime, because: "the host was asked to close it").value
    }

    /// Shuts every session down gracefully, as a service does on SIGTERM: no new sessions or asks, running calls
    /// finish and results are posted within `timeout`, then every session stops. Whatever is undelivered stays in
    /// the key's folder for the next process.
    public func drain(timeout: Duration = .seconds(10)) async {
        let (open, closing) = table.withLock { $0.closeAll() }
        sweeper.withLock { task in
            task?.cancel()
            task = nil
        }
        stopOrphanSweep()
        await withTaskGroup(of: Void.self) { group in
            for (_, runtime) in open { group.addTask { await runtime.drain(timeout: timeout) } }
            for task in closing { group.addTask { await task.value } }
            group.addTask { await self.drainRecovery(timeout: timeout) }
        }
        releaseFolder()
    }

    private func checkOut(_ key: String) async throws(ResolveKitError) -> ResolveKitRuntime {
        try lockFolderIfNeeded()
        await waitForRecovery(of: key)
        while true {
            let now = configuration.clock.elapsed
            let outcome = table.withLock { $0.checkOut(key, now: now) { makeRuntime(for: key) } }
            switch outcome {
            case .hostClosed:
                throw ResolveKitError(.cancelled, "The host was drained; it opens no more sessions")
            case .waitForClose(let closing):
                await closing.value
            case .ready(let runtime, let created):
                if created { sessionOpened() }
                do throws(ResolveKitError) {
                    try await runtime.start()
                    // Another replica took the key while this run sat idle: close it and start afresh, which takes
                    // the key back if that replica let it go, or says who holds it.
                    if let lost = runtime.store.ownershipLost() {
                        checkIn(key)
                        let stale = table.withLock { $0.remove(key, force: true) }
                        let owner = lost.keyOwner.map { "replica \($0.replica)" } ?? "another replica"
                        metrics?.replicaKeyEvent(.lost)
                        let reason = "\(owner) took the user's state while it was idle; opening it again"
                        if let stale { await startClosing(key, stale, because: reason).value }
                        continue
                    }
                    return runtime
                } catch {
                    checkIn(key)
                    if error.code == .keyOwnedElsewhere { metrics?.replicaKeyEvent(.ownedElsewhere) }
                    if let failed = table.withLock({ $0.remove(key) }) {
                        await startClosing(key, failed, because: "it could not start: \(error.message)").value
                    }
                    throw error
                }
            }
        }
    }

    /// The catalog of the configuration's telemetry (shared with its runtimes), where the host counts what happens
    /// to keys between replicas.
    var metrics: ResolveKitMetrics? {
        guard let telemetry = configuration.telemetry, let registry = try? registry.get() else { return nil }
        return try? telemetry.metrics(functionNames: registry.functionNames)
    }

    private func checkIn(_ key: String) {
        let now = configuration.clock.elapsed
        table.withLock { $0.checkIn(key, now: now) }
    }

    /// One key's runtime: the host's configuration with the key's folder (or Redis key), device id and dependencies.
    private func makeRuntime(for key: String) -> ResolveKitRuntime {
        var perKey = configuration
        if case .redis = configuration.stateLocation {
            perKey.stateKey = key
        } else {
            perKey.stateLocation =
                configuration.resolvedStateDirectory.map { .directory(Self.folder(for: key, in: $0)) } ?? .inMemory
        }
        perKey.deviceIDProvider = { nil }
        perKey.dependencies = configuration.dependencies.merging(options.dependencies(key))
        // Which user a session's lines are about, without the key itself: the digest its folder is named by.
        perKey.logger = configuration.logger.with(metadata: Self.logMetadata(for: key))
        return ResolveKitRuntime(
            configuration: perKey, httpClient: http, registry: registry, registration: registration, approvals: approvals)
    }

    /// What a key's log lines carry: `key=` and its ``logName(for:)``; nothing for the empty key (a service's one
    /// shared session), whose digest would be the same meaningless value on every line.
    static func logMetadata(for key: String) -> [String: String] {
        key.isEmpty ? [:] : ["key": logName(for: key)]
    }

    /// The first 12 hexadecimal digits of the key's SHA-256, as log lines name a key: never the key itself.
    static func logName(for key: String) -> String {
        String(SHA256.hexDigest(key).prefix(12))
    }

    /// `<state folder>/sessions/<SHA-256 of the key>`: a key never appears in a path.
    static func folder(for key: String, in root: String) -> String {
        root + "/sessions/" + SHA256.hexDigest(key)
    }

    /// A session opened: close the least recently used beyond the cap, and make sure idle ones get closed.
    private func sessionOpened() {
        let evicted = table.withLock { $0.evictions(maxOpen: options.maxOpenSessions) }
        let cap = options.maxOpenSessions
        for (key, runtime) in evicted {
            startClosing(key, runtime, because: "more than \(cap) sessions are open and it was used least recently")
        }
        startSweeperIfNeeded()
        startOrphanSweepIfNeeded()
    }

    /// Drains and closes a key's runtime, saying `because` in the key's log (its own lines then say "Draining").
    @discardableResult
    private func startClosing(
        _ key: String, _ runtime: ResolveKitRuntime, because reason: String
    ) -> Task<Void, Never> {
        configuration.logger.info("Closing the session: \(reason)", metadata: Self.logMetadata(for: key))
        let timeout = options.closeTimeout
        return table.withLock { table in
            let task = Task { [self] in
                await runtime.drain(timeout: timeout)
                finishedClosing(key)
            }
            table.closing(key, task)
            return task
        }
    }

    private func finishedClosing(_ key: String) {
        table.withLock { $0.closed(key) }
    }

    private func startSweeperIfNeeded() {
        guard let idleTimeout = options.idleTimeout else { return }
        let clock = configuration.clock
        sweeper.withLock { task in
            guard task == nil else { return }
            // Checks a few times per idle period, so a session closes at most a quarter period late.
            let period = idleTimeout / 4
            task = Task { [weak self] in
                while !Task.isCancelled {
                    do { try await clock.sleep(untilElapsed: clock.elapsed + period) } catch { return }
                    guard let self else { return }
                    let idle = self.table.withLock { $0.idleSessions(now: clock.elapsed, idleFor: idleTimeout) }
                    for (key, runtime) in idle {
                        self.startClosing(key, runtime, because: "idle for \(idleTimeout.inWords)")
                    }
                }
            }
        }
    }
}
