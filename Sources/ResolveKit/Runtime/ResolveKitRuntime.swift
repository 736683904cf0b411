public import Observation
public import ResolveKitHTTP
import Foundation
import ResolveKitTelemetry
import Synchronization

/// The public entry point: registers your functions, keeps a session and its event stream alive, runs the
/// agent's tool calls with approval and deadlines, and posts each result exactly once.
///
/// ```swift
/// let runtime = ResolveKitRuntime(configuration: ResolveKitConfiguration(
///     apiKeyProvider: { ProcessInfo.processInfo.environment["RESOLVEKIT_API_KEY"] },
///     functions: ResolveKitAutoRegistry.functions,
///     approver: PolicyApprover(rules: ["get_host_status": .allow])
/// ))
/// try await runtime.start()
/// let outcome = await runtime.sendMessage("How busy is this machine?")
/// ```
/// State is observable (Observation) and thread-safe; ``events`` delivers every change as it happens.
public final class ResolveKitRuntime: Observable, Sendable {
    /// The configuration it was made with.
    public let configuration: ResolveKitConfiguration
    /// The registered functions, or why they were refused.
    let registryResult: Result<ResolveKitRegistry, ResolveKitRegistryError>
    let state = Mutex(RuntimeSnapshot())
    let registrar = ObservationRegistrar()
    let broadcaster = EventBroadcaster<ResolveKitRuntimeEvent>()
    /// The wire tap's subscribers (``wireTap``).
    let wire = EventBroadcaster<ResolveKitWireRecord>()
    let http: HTTPClient
    /// The device id, session, cursor and journal: owned by the runtime, so a stop and a start keep them also in
    /// memory.
    let store: any SessionStateStore
    /// Shared by a host's sessions so they register once; `nil` for a runtime of its own.
    let registration: FunctionRegistration?
    /// The calls waiting for approval, decided from any task (shared by a host's sessions).
    public let approvals: ToolApprovals
    /// The session being run and the task of ``start()`` running it.
    private let running = Mutex(Running())

    private struct Running {
        var driver: SessionDriver?
        var task: Task<Void, Never>?
        /// Callers of ``stop()`` waiting for a ``run()`` in a task of the host's own to end.
        var stopWaiters: [CheckedContinuation<Void, Never>] = []
    }

    /// Creates a runtime; nothing connects until ``start()`` or ``run()``.
    /// - Parameters:
    ///   - configuration: what to connect to and how to behave.
    ///   - httpClient: the HTTP client to use; runtimes share ``sharedHTTPClient`` by default, so many sessions in
    ///     one process use one curl thread and its connection pool.
    public convenience init(configuration: ResolveKitConfiguration, httpClient: HTTPClient? = nil) {
        self.init(
            configuration: configuration, httpClient: httpClient, registry: Self.makeRegistry(configuration),
            registration: nil, approvals: nil)
    }

    /// A runtime whose registry and registration are shared with others, as a host's sessions share them.
    init(
        configuration: ResolveKitConfiguration, httpClient: HTTPClient?,
        registry: Result<ResolveKitRegistry, ResolveKitRegistryError>, registration: FunctionRegistration?,
        approvals: ToolApprovals?
    ) {
        self.approvals = approvals ?? ToolApprovals.make(for: configuration, registry: try? registry.get())
        self.configuration = configuration
        self.http = httpClient ?? Self.sharedHTTPClient
        self.store = makeStateStore(configuration)
        self.registration = registration
        self.registryResult = registry
    }

    /// The configuration's functions and packs, checked and with their schemas parsed.
    static func makeRegistry(_ configuration: ResolveKitConfiguration) -> Result<ResolveKitRegistry, ResolveKitRegistryError> {
        Result { () throws(ResolveKitRegistryError) in
            try ResolveKitRegistry(functions: configuration.functions, functionPacks: configuration.functionPacks)
        }
    }

    /// This package's version, e.g. `1.0.0`: the SDK version sent to the backend.
    public static var version: String { ResolveKitVersion.current }

    /// The process-wide HTTP client: one libcurl thread and connection pool for every runtime.
    public static let sharedHTTPClient = HTTPClient()

    /// The registered function names, in registration order (empty if the registry was refused).
    public var registeredFunctionNames: [String] { (try? registryResult.get().functionNames) ?? [] }

    /// Every event from the moment of access on; each access is a new subscription.
    public var events: AsyncStream<ResolveKitRuntimeEvent> { broadcaster.subscribe() }

    var driver: SessionDriver? { running.withLock { $0.driver } }

    /// Runs the runtime in the calling task until the task is cancelled, the runtime is blocked, or it fails;
    /// everything it started is finished when it returns. Use this from a service's structured lifetime.
    ///
    /// The state folder is locked (or the Redis key leased) for the whole run, so no other runtime, in this process
    /// or another, can share its session and journal.
    /// - Throws: ``ResolveKitError`` with ``ResolveKitError/Code/missingBaseURL`` (no `baseURL`, no
    ///   `RESOLVEKIT_BASE_URL`), ``ResolveKitError/Code/invalidConfiguration`` (a refused function, a base URL that is
    ///   not http(s), a Redis URL that does not parse), ``ResolveKitError/Code/stateLocked``,
    ///   ``ResolveKitError/Code/keyOwnedElsewhere`` (another replica holds the key) or
    ///   ``ResolveKitError/Code/stateStore`` at once, before anything connects. Once running, a block or failure
    ///   ends `run()` without throwing; it is in ``connectionState`` and ``lastError``.
    public func run() async throws(ResolveKitError) {
        let driver = try makeDriver()
        try await store.acquire()
        running.withLock { $0.driver = driver }
        await driver.run()
        await store.release()
        // Whoever stopped it learns it ended once the folder is unlocked.
        let waiters = running.withLock { running in
            if running.driver === driver { running.driver = nil }
            defer { running.stopWaiters = [] }
            return running.stopWaiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Checks the configuration, locks the state folder and makes the session's driver. Out of line: `run()`'s
    /// frame lives as long as the runtime, and a task keeps its frames' memory until it ends.
    @inline(never) private func makeDriver() throws(ResolveKitError) -> SessionDriver {
        let registry: ResolveKitRegistry
        switch registryResult {
        case .success(let value): registry = value
        case .failure(let error):
            throw ResolveKitError(.invalidConfiguration, "A function was refused: \(error)", underlying: error)
        }
        var configuration = try configuration.checkedForStart()
        let telemetry = try SessionTelemetry(configuration, functionNames: registry.functionNames)
        // The wire tap sees every exchange beside the host's own observer, at no cost while nobody reads it.
        let observer = configuration.network.observer
        configuration.network.observer = { [wire] record in
            observer?(record)
            if wire.hasSubscribers { wire.send(.exchange(record)) }
        }
        if observer == nil { configuration.network.observerIsListening = { [wire] in wire.hasSubscribers } }
        let output = makeOutput()
        var settings = SessionSettings(configuration, registry: registry)
        settings.writesApplyAtOnce = store is any LocalStateStore
        settings.journalKeepsEveryRecord = store.journalKeepsEveryRecord
        let runner = ToolCallRunner(
            dispatcher: ToolDispatcher(
                registry: registry, clock: configuration.clock, logger: configuration.logger,
                dependencies: configuration.dependencies),
            approvals: approvals, approver: configuration.approver,
            audit: AuditRecords(trail: configuration.auditTrail) { output.log($0, level: .error) },
            control: ToolCallControl(maxConcurrentCalls: configuration.maxConcurrentCalls, gate: store.startRefusal),
            runsSequentially: configuration.runsApprovedCallsSequentially,
            telemetry: ToolCallTelemetry(metrics: telemetry.metrics, tracer: telemetry.tracer))
        let driver = SessionDriver(parts: SessionDriver.Parts(
            configuration: configuration, http: http, store: store, registration: registration, runner: runner,
            output: output, settings: settings, wire: wire, telemetry: telemetry))
        return driver
    }

    /// Starts the runtime in the background and returns once the event stream is open. Calling it again while it
    /// runs returns at once; after a block, a failure or ``stop()`` it starts afresh.
    /// - Throws: ``ResolveKitError`` when the runtime ends up blocked or failed instead: no API key, a rejected
    ///   key, an unsupported SDK, a locked state folder, or ``ResolveKitError/Code/unreachable`` when nothing
    ///   connected within ``ResolveKitConfiguration/connectTimeout``. The error is also in ``lastError``.
    public func start() async throws(ResolveKitError) {
        // A host calls this before every ask: a running runtime answers without subscribing to its events.
        if running.withLock({ $0.task != nil }), connectionState == .active { return }
        let events = broadcaster.subscribe()
        let task = running.withLock { running -> Task<Void, Never> in
            if let task = running.task, !Self.hasEnded(connectionState) { return task }
            let started = Task { [self] in
                do throws(ResolveKitError) { try await run() } catch { didNotStart(error) }
            }
            running.task = started
            return started
        }
        if connectionState == .active { return }
        for await event in events {
            guard case .connectionStateChanged(let state) = event else { continue }
            switch state {
            case .active: return
            case .blocked(let error), .failed(let error): throw error
            default: continue
            }
        }
        task.cancel()
        throw ResolveKitError(.cancelled, "Cancelled while starting")
    }

    /// Ends a ``run()`` the host called in a task of its own (``start()``'s task is cancelled instead), and waits
    /// until it returned.
    private func stopRunInCallersTask() async {
        guard let driver = running.withLock({ $0.driver }) else { return }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let runs = running.withLock { running -> Bool in
                guard running.driver === driver else { return false }
                running.stopWaiters.append(continuation)
                return true
            }
            if runs { driver.send(.stop) } else { continuation.resume() }
        }
    }

    @inline(never) private func didNotStart(_ error: ResolveKitError) {
        update { $0.lastError = error }
        makeOutput().setState(error.code == .invalidConfiguration ? .failed(error) : .blocked(error))
    }

    private static func hasEnded(_ state: ResolveKitConnectionState) -> Bool {
        switch state {
        case .blocked, .failed: true
        default: false
        }
    }

    /// Stops everything: the stream, pending approvals and running calls are cancelled and awaited, waiting `ask`s
    /// end with ``ResolveKitError/Code/cancelled``, the state folder is unlocked; a ``run()`` in a task of yours
    /// returns. Idempotent.
    public func stop() async {
        let task = running.withLock { $0.task.take() }
        task?.cancel()
        await task?.value
        await stopRunInCallersTask()
        running.withLock { $0.driver = nil }
        wire.finishAll()
        makeOutput().setState(.idle)
    }

    /// Shuts down gracefully, as a service does on SIGTERM: no new tool calls are run (they, queued ones and those
    /// waiting for a decision get an error result), running calls finish, results are posted, the `ask` whose turn
    /// is under way gets its answer (questions not sent yet fail with ``ResolveKitError/Code/cancelled``, "the
    /// question was not sent"), then the runtime stops and the spans of its
    /// ``ResolveKitConfiguration/telemetry`` are exported (in what is left of `timeout`, at least a second, and only
    /// while its export loop runs). Whatever is still undelivered after `timeout` stays in the state folder and is
    /// delivered by the next process.
    public func drain(timeout: Duration = .seconds(10)) async {
        let clock = configuration.clock
        let started = clock.elapsed
        await driver?.drain(timeout: timeout)
        await stop()
        // Within what is left of the caller's budget: a service's stop timeout (systemd's) counts all of it.
        let left = timeout - (clock.elapsed - started)
        await configuration.telemetry?.flush(timeout: max(left, .seconds(1)))
    }

    /// Sends a user message. Returns at once with ``ResolveKitSendOutcome/rejectedTurnInProgress`` while a turn
    /// runs; otherwise when the backend accepted the turn or sending failed after retries (a result, not an error).
    /// Follow the turn through ``events``, or use ``ask(_:timeout:parent:)`` to wait for its answer.
    /// - Parameter parent: The trace the turn belongs to, e.g. from the `traceparent` of the request you serve
    ///   (`try SpanContext(traceparent: header)`): the turn's span, its calls and the backend requests descend from
    ///   it, and the requests carry it on.
    public func sendMessage(_ text: String, parent: SpanContext? = nil) async -> ResolveKitSendOutcome {
        guard let driver else { return .failed(ResolveKitError(.notStarted, "Not connected: start the runtime first")) }
        return await driver.sendMessage(text, parent: parent)
    }

    /// Asks and waits for the answer: the turn's text, its tool calls with their decisions, outcomes and timing,
    /// and the token usage.
    ///
    /// A second `ask` while a turn runs waits its turn (first come, first served, at most
    /// ``ResolveKitConfiguration/turnQueueLimit`` waiting) instead of failing. Declined or failed tool calls and an
    /// agent's error are part of the result. With no `timeout`, the wait is still bounded: a turn the backend lost
    /// ends with ``ResolveKitError/Code/turnLost`` after two watchdog periods of silence.
    /// - Parameters:
    ///   - text: The message, 1 to 32768 characters.
    ///   - timeout: The longest wait, queueing included; the turn may still finish on the server afterwards.
    ///   - parent: The trace the turn belongs to, e.g. from the `traceparent` of the request you serve
    ///     (`try SpanContext(traceparent: header)`): the turn's `invoke_agent` span, its calls and the backend
    ///     requests descend from it, and the requests carry it on.
    /// - Throws: ``ResolveKitError``: `invalidMessage`, `notStarted`, `turnQueueFull`, `turnTimedOut`, `turnLost`,
    ///   `sessionGone`, `backend`, `cancelled` (the task was cancelled or the runtime stopped).
    public func ask(
        _ text: String, timeout: Duration? = nil, parent: SpanContext? = nil
    ) async throws(ResolveKitError) -> ResolveKitTurnResult {
        guard let driver else { throw ResolveKitError(.notStarted, "Not connected: start the runtime first") }
        return try await driver.ask(text, timeout: timeout, parent: parent).get()
    }

    /// Ends the current session and starts a fresh one (a new conversation, the transcript cleared).
    public func reloadWithNewSession() async {
        driver?.requestNewSession()
    }

    /// Sends the current context, allow-list and locale to the session (`PATCH /context`); they apply from the
    /// next turn.
    /// - Throws: ``ResolveKitError`` (`notStarted`, or `backend` with the ``BackendError``) when the backend
    ///   refuses or cannot be reached.
    public func refreshSessionContext() async throws(ResolveKitError) {
        guard let driver else { throw ResolveKitError(.notStarted, "Not connected: start the runtime first") }
        try await driver.perform(.refreshContext)
    }

    /// Switches the chat locale (a BCP 47 tag, or `nil` for the configured one) and updates ``currentLocale``,
    /// ``chatTitle`` and ``messagePlaceholder`` from the backend.
    /// - Throws: ``ResolveKitError`` (`notStarted`, or `backend` with the ``BackendError``) when the backend
    ///   refuses or cannot be reached.
    public func setLocale(_ locale: String?) async throws(ResolveKitError) {
        guard let driver else { throw ResolveKitError(.notStarted, "Not connected: start the runtime first") }
        try await driver.perform(.setLocale(locale))
    }
}
