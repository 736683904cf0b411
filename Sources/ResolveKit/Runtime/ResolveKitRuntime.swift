public import Observation
public import ResolveKitHTTP
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
    let broadcaster = EventBroadcaster()
    let http: HTTPClient
    private let engineStorage = Mutex<SessionEngine?>(nil)
    private let lifecycle = Mutex<Task<Void, Never>?>(nil)

    /// Creates a runtime; nothing connects until ``start()`` or ``run()``.
    /// - Parameters:
    ///   - configuration: what to connect to and how to behave.
    ///   - httpClient: the HTTP client to use; runtimes share ``sharedHTTPClient`` by default, so many sessions in
    ///     one process use one curl thread and its connection pool.
    public init(configuration: ResolveKitConfiguration, httpClient: HTTPClient? = nil) {
        self.configuration = configuration
        self.http = httpClient ?? Self.sharedHTTPClient
        do {
            registryResult = .success(try ResolveKitRegistry(functions: configuration.functions, functionPacks: configuration.functionPacks))
        } catch {
            registryResult = .failure(error)
        }
    }

    /// The process-wide HTTP client: one libcurl thread and connection pool for every runtime.
    public static let sharedHTTPClient = HTTPClient()

    /// The registered function names, in registration order (empty if the registry was refused).
    public var registeredFunctionNames: [String] { (try? registryResult.get().functionNames) ?? [] }

    /// Every event from the moment of access on; each access is a new subscription.
    public var events: AsyncStream<ResolveKitRuntimeEvent> { broadcaster.subscribe() }

    var engine: SessionEngine? { engineStorage.withLock { $0 } }

    /// Runs the runtime in the calling task until the task is cancelled, the runtime is blocked, or it fails;
    /// everything it started is finished when it returns. Use this from a service's structured lifetime.
    /// - Throws: ``ResolveKitRegistryError`` when a configured function is refused before anything connects.
    public func run() async throws {
        let registry = try registryResult.get()
        let engine = SessionEngine(configuration: configuration, registry: registry, http: http, output: makeOutput())
        engineStorage.withLock { $0 = engine }
        await engine.run()
    }

    /// Starts the runtime in the background and returns once the event stream is open.
    /// - Throws: ``ResolveKitRuntimeError`` when the runtime ends up blocked or failed instead (no API key, an
    ///   unsupported SDK, a rejected key, a refused function …); the reason is also in ``lastError``.
    public func start() async throws {
        let events = broadcaster.subscribe()
        let started = lifecycle.withLock { task -> Bool in
            guard task == nil else { return false }
            task = Task { [self] in
                do {
                    try await run()
                } catch {
                    let reason = "\(error)"
                    update { $0.lastError = reason }
                    makeOutput().setState(.blocked(reason: reason))
                }
            }
            return true
        }
        if !started, connectionState == .active { return }
        for await event in events {
            guard case .connectionStateChanged(let state) = event else { continue }
            switch state {
            case .active: return
            case .blocked(let reason): throw ResolveKitRuntimeError(message: reason)
            case .failed: throw ResolveKitRuntimeError(message: lastError ?? "The runtime failed")
            default: continue
            }
        }
    }

    /// Stops everything: the stream, pending approvals and running calls are cancelled and awaited. Idempotent.
    public func stop() async {
        let task = lifecycle.withLock { task -> Task<Void, Never>? in
            defer { task = nil }
            return task
        }
        task?.cancel()
        await task?.value
        engineStorage.withLock { $0 = nil }
        makeOutput().setState(.idle)
    }

    /// Shuts down gracefully, as a service does on SIGTERM: no new tool calls are run (they and queued ones get
    /// an error result), running calls finish, results are posted, then the runtime stops. Whatever is still
    /// undelivered after `timeout` stays in the state folder and is delivered by the next process.
    public func drain(timeout: Duration = .seconds(10)) async {
        if let engine {
            await engine.beginDrain()
            let clock = ContinuousClock()
            let deadline = clock.now.advanced(by: timeout)
            while clock.now < deadline, await !engine.isIdle {
                try? await clock.sleep(for: .milliseconds(20))
            }
        }
        await stop()
    }

    /// Sends a user message. Returns at once with ``ResolveKitSendOutcome/rejectedTurnInProgress`` while a turn
    /// runs; otherwise when the backend accepted the turn or sending failed after retries (a result, not an error).
    public func sendMessage(_ text: String) async -> ResolveKitSendOutcome {
        guard let engine else { return .failed(reason: "Not connected: start the runtime first") }
        return await engine.sendMessage(text)
    }

    /// Ends the current session and starts a fresh one (a new conversation, the transcript cleared).
    public func reloadWithNewSession() async {
        await engine?.requestNewSession()
    }

    /// Sends the current context, allow-list and locale to the session (`PATCH /context`); they apply from the
    /// next turn.
    /// - Throws: ``BackendError`` when the backend refuses or cannot be reached.
    public func refreshSessionContext() async throws {
        guard let engine else { throw ResolveKitRuntimeError(message: "Not connected: start the runtime first") }
        try await engine.refreshSessionContext()
    }

    /// Switches the chat locale (a BCP 47 tag, or `nil` for the configured one) and updates ``currentLocale``,
    /// ``chatTitle`` and ``messagePlaceholder`` from the backend.
    /// - Throws: ``BackendError`` when the backend refuses or cannot be reached.
    public func setLocale(_ locale: String?) async throws {
        guard let engine else { throw ResolveKitRuntimeError(message: "Not connected: start the runtime first") }
        try await engine.setLocale(locale ?? configuration.resolvedLocale)
    }
}

/// A runtime operation that could not be carried out, with the reason in words.
public struct ResolveKitRuntimeError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong and what to do about it.
    public var message: String
    /// Creates an error.
    public init(message: String) { self.message = message }
    /// The message.
    public var description: String { message }
}
