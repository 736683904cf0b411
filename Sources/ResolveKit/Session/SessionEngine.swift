import Foundation
import ResolveKitHTTP

/// Drives one runtime: compatibility check, function registration, the session, its event stream, tool calls
/// and result delivery. All mutable state is isolated here; ``ResolveKitRuntime`` is the public face. The
/// decisions are made by pure machines it owns: ``BackendFailurePolicy`` for every failed request,
/// ``TurnTracker`` for the turn, ``ToolPipeline`` for calls; results wait in the
/// ``ResultOutbox`` until the server has them.
actor SessionEngine {
    /// Why a session's work stopped.
    enum SessionEnding: Sendable, Equatable {
        case cancelled
        case newSessionRequested
        /// The session is expired, closed or escalated (410), or holds a lost turn's lock: start a new one and
        /// tell the user this.
        case sessionGone(String)
        /// The session no longer exists for this app (404): create one again.
        case sessionMissing
        /// The session's access broke in a way setup can repair (a token that could not be refreshed): run setup
        /// again, reusing the session.
        case reopen(String)
        case blocked(ResolveKitError)
        case failed(ResolveKitError)
    }

    /// A stop during setup.
    enum SetupFailure: Error {
        case blocked(ResolveKitError)
        case failed(ResolveKitError)
        case retry(any Error & Sendable)
    }

    let configuration: ResolveKitConfiguration
    let registry: ResolveKitRegistry
    let http: HTTPClient
    let store: RuntimeStateStore
    let clock: ResolveKitClock
    let output: RuntimeOutput
    let dispatcher: ToolDispatcher

    var backend: BackendClient?
    var session: SessionAccess?
    var sessionResponse: SessionResponse?
    var allowedNames: Set<String> = []
    var connection = ConnectionMemory()
    var lifecycle: SessionLifecycle
    var progress = StreamProgress()
    var channels = SessionChannels()
    var turns: TurnTracker
    var turnRecord: TurnRecord?
    var pipeline: ToolPipeline
    /// The tasks running functions, to cancel a call whose turn ended.
    var runningCalls: [String: RunningCall] = [:]
    var outbox: ResultOutbox
    var waiting = EngineWaiters()
    /// Fulfilled with `true` when the first stream opens, or `false` when the connect budget ran out first.
    let firstOpen = OneShot<Bool>()
    /// When `start()` gives up if no stream has opened: the connect timeout, pushed out once a session exists so
    /// the stream's own first attempt (bounded by its idle timeout) can still finish.
    var connectDeadline: Duration = .zero

    /// Registers the functions and checks compatibility: at every setup, or once for all of a host's sessions.
    let registration: FunctionRegistration?
    /// Where batches wait for a decision from the approver or anyone else.
    let approvals: ToolApprovals

    init(
        configuration: ResolveKitConfiguration, registry: ResolveKitRegistry, http: HTTPClient, output: RuntimeOutput,
        store: RuntimeStateStore, registration: FunctionRegistration?, approvals: ToolApprovals
    ) {
        self.approvals = approvals
        self.configuration = configuration
        self.registry = registry
        self.http = http
        self.output = output
        self.clock = configuration.clock
        self.store = store
        self.registration = registration
        self.outbox = ResultOutbox(store: store.journalStore)
        self.pipeline = ToolPipeline(
            batchWindow: configuration.batchWindow, maxConcurrentCalls: configuration.maxConcurrentCalls)
        self.turns = TurnTracker(period: configuration.turnWatchdog)
        self.lifecycle = SessionLifecycle(retryBudget: configuration.reconnectAttemptBudget)
        self.dispatcher = ToolDispatcher(
            registry: registry, clock: configuration.clock, logger: configuration.logger,
            dependencies: configuration.dependencies)
    }

    /// Runs until cancelled, blocked or failed. Fails with ``ResolveKitError/Code/unreachable`` when no event stream
    /// opened within the configured connect timeout.
    func run() async {
        guard connectBackend() else { return }
        enum Finished { case sessions, budget(unconnected: Bool) }
        let gaveUp = await withTaskGroup(of: Finished.self) { group in
            group.addTask {
                await self.runSessions()
                return .sessions
            }
            if let budget = configuration.connectTimeout {
                connectDeadline = clock.elapsed + budget
                group.addTask { [clock, firstOpen] in
                    // The timer ends as soon as the stream opens, so it does not linger on the clock.
                    let timer = Task {
                        var deadline = await self.connectDeadline
                        while true {
                            try await clock.sleep(untilElapsed: deadline)
                            let latest = await self.connectDeadline
                            guard latest > deadline else { break }
                            deadline = latest
                        }
                        firstOpen.fulfill(false)
                    }
                    let opened = await firstOpen.value()
                    timer.cancel()
                    return .budget(unconnected: opened == false)
                }
            }
            for await finished in group {
                if case .budget(unconnected: false) = finished { continue }
                group.cancelAll()
                if case .budget(unconnected: true) = finished { return true }
                return false
            }
            return false
        }
        endOfRun()
        if gaveUp, !Task.isCancelled { failUnconnected() }
    }

    /// Makes the backend client from the API key; blocks the runtime when there is none.
    @inline(never) private func connectBackend() -> Bool {
        guard let apiKey = configuration.apiKeyProvider(), !apiKey.isEmpty else {
            block(ResolveKitError(.missingAPIKey, "No API key: the apiKeyProvider returned nil or an empty string"))
            return false
        }
        backend = BackendClient(
            http: http, baseURL: configuration.baseURL.absoluteString, apiKey: apiKey,
            timeout: configuration.requestTimeout, network: configuration.network)
        return true
    }

    @inline(never) private func failUnconnected() {
        let budget = configuration.connectTimeout ?? .zero
        let cause = connection.lastConnectFailure.map { " (last cause: \($0))" }
            ?? " (the backend answered, but its event stream did not open)"
        fail(ResolveKitError(
            .unreachable, "No connection to \(configuration.baseURL.absoluteString) within \(budget)\(cause)",
            underlying: connection.lastConnectFailure))
    }

    /// Sets up and runs sessions one after another until cancelled, blocked or failed; ``SessionLifecycle``
    /// decides each next step.
    /// The session loop. It runs for the runtime's whole life, and an async function's frame holds every value its
    /// body keeps across a suspension for as long as it runs (the task never gives that memory back), so the loop
    /// only awaits; what it decides between awaits is in the out-of-line steps below.
    private func runSessions() async {
        var action = lifecycle.start()
        while !Task.isCancelled {
            switch action {
            case .stop, .block, .fail:
                finishSessions(action)
                return
            case .retry(_, let delay):
                announceRetry(action)
                do { try await clock.sleep(untilElapsed: clock.elapsed + delay) } catch { break }
                action = .setUp(reuse: lifecycle.reuses)
            case .setUp(let reuse):
                if let failure = await setUpOnFreshStack(reuse: reuse) {
                    action = setupFailed(failure)
                } else {
                    sessionOpened()
                    action = sessionEnded(await runSession())
                }
            }
        }
        output.setState(.idle)
    }

    @inline(never) private func finishSessions(_ action: SessionLifecycle.Action) {
        switch action {
        case .block(let error): block(error)
        case .fail(let error): fail(error)
        default: output.setState(.idle)
        }
    }

    @inline(never) private func announceRetry(_ action: SessionLifecycle.Action) {
        guard case .retry(let attempt, let delay) = action else { return }
        output.setState(.reconnecting(attempt: attempt, delay: delay))
    }

    @inline(never) private func sessionOpened() {
        if let notice = lifecycle.opened() { output.system(notice) }
    }

    @inline(never) private func sessionEnded(_ ending: SessionEnding) -> SessionLifecycle.Action {
        if case .sessionMissing = ending {
            output.log("The session no longer exists; creating one", level: .warning)
        } else if case .reopen(let reason) = ending {
            output.log(reason, level: .warning)
        }
        return lifecycle.sessionEnded(ending)
    }

    @inline(never) private func setupFailed(_ failure: SetupFailure) -> SessionLifecycle.Action {
        switch failure {
        case .blocked(let error): return .block(error)
        case .failed(let error): return .fail(error)
        case .retry(let cause):
            // Cancelled during setup: the loop ends at its next check.
            guard !Task.isCancelled else { return .stop }
            connection.lastConnectFailure = cause
            let action = lifecycle.setupFailed(cause)
            if case .retry(_, let delay) = action {
                output.log("Setup failed (\(cause)); retrying in \(delay)", level: .warning)
            }
            return action
        }
    }

    /// Registers and opens the session in a child task. An async task keeps the memory of its deepest stack for
    /// its whole life; setup (HTTP, JSON, history) is the deepest work a session does, and in the session's own
    /// long-lived task it would stay allocated, about 8 KiB per idle session.
    @inline(never) private func setUpOnFreshStack(reuse: Bool) async -> SetupFailure? {
        let result = await withTaskGroup(of: Result<Void, SetupFailure>.self) { group in
            group.addTask {
                do throws(SetupFailure) {
                    self.output.setState(.registering)
                    try await self.registerOnce()
                    self.output.setState(.connecting)
                    try await self.openSession(reuse: reuse)
                    return .success(())
                } catch {
                    return .failure(error)
                }
            }
            return await group.next() ?? .success(())
        }
        if case .failure(let failure) = result { return failure }
        return nil
    }

    /// Whatever waits on this runtime learns it stopped: queued and running `ask`s, and session waiters.
    @inline(never) private func endOfRun() {
        if progress.cursor.isDirty { persistSession() }
        endTurnWaiters(ResolveKitError(.cancelled, "The runtime stopped"))
        for waiter in waiting.asks { waiter.fulfill(false) }
        waiting.asks = []
        for waiter in waiting.sessions { waiter.fulfill(false) }
        waiting.sessions = []
    }

    func block(_ error: ResolveKitError) {
        output.update { $0.lastError = error }
        output.setState(.blocked(error))
        output.emit(.error(error))
    }

    func fail(_ error: ResolveKitError) {
        output.fail(error)
        output.setState(.failed(error))
    }

    /// Ends the current session's work and starts a new session (the seed's "new chat").
    func requestNewSession() {
        endSessionWork(.newSessionRequested)
        if channels.work == nil { lifecycle.newSessionRequested() }
    }
}

/// The reconnect schedule for setup and deliveries: 1 s doubling to 30 s, ±20 % jitter.
enum Backoff {
    static func delay(forAttempt attempt: Int, random: Double = Double.random(in: 0...1)) -> Duration {
        let base = min(30.0, pow2(max(0, attempt - 1)))
        return .milliseconds(Int((base * (0.8 + 0.4 * random)) * 1000))
    }

    private static func pow2(_ exponent: Int) -> Double { exponent >= 5 ? 32 : Double(1 << exponent) }
}
