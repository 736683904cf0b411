import Foundation
import ResolveKitHTTP

/// Drives one runtime: compatibility check, function registration, the session, its event stream, tool calls
/// and result delivery. All mutable state is isolated here; ``ResolveKitRuntime`` is the public face.
actor SessionEngine {
    /// Why a session's work stopped.
    enum SessionEnding: Sendable, Equatable {
        case cancelled
        case newSessionRequested
        /// The session is expired, closed or escalated (410): start a new one.
        case sessionGone(String)
        /// The session no longer exists for this app (404): create one again.
        case sessionMissing
        /// The session's access broke in a way setup can repair (a token that could not be refreshed): run setup
        /// again, reusing the session.
        case reopen(String)
        case blocked(String)
        case failed(String)
    }

    /// A stop during setup.
    enum SetupFailure: Error {
        case blocked(String)
        case failed(String)
        case retry(String)
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
    var cursor: String?
    var allowedNames: Set<String> = []
    var journal: CallJournal
    var batcher: ToolBatcherStateMachine
    var replayGuard: ReplayGuard?
    /// The server time of the newest event handled in this session (the cutoff of a replay without cursor).
    var newestHandledEventTime: Date?
    var handledEvents = HandledEvents()
    var streamReset: AsyncStream<Void>.Continuation?

    var jobs: AsyncStream<@Sendable () async -> Void>.Continuation?
    var deliveryKick: AsyncStream<Void>.Continuation?
    var control: AsyncStream<SessionEnding>.Continuation?
    var runningImmediateCalls = 0
    var waitingImmediateCalls: [PendingToolCall] = []
    /// Calls admitted in this session that have no outcome yet, by call id.
    var openCalls: [String: PendingToolCall] = [:]
    /// Set by ``beginDrain()``: new calls are answered with an error instead of being run.
    var isDraining = false

    var activeTurnID: String?
    var pendingRequestID: String?
    var lastTurnActivity: Duration = .zero
    var hasOpenedStream = false
    /// The stream refreshed the token after a 403 and has not opened since; another 403 means chat is off.
    var refreshedSinceStreamOpened = false
    var reuseNextSession = true
    /// Told to the user once the next session is open (its transcript starts empty).
    var pendingNotice: String?

    init(configuration: ResolveKitConfiguration, registry: ResolveKitRegistry, http: HTTPClient, output: RuntimeOutput) {
        self.configuration = configuration
        self.registry = registry
        self.http = http
        self.output = output
        self.clock = configuration.clock
        self.store = RuntimeStateStore(directory: configuration.resolvedStateDirectory)
        var journal = store.loadJournal()
        journal.resolveInterruptedCalls()
        self.journal = journal
        self.batcher = ToolBatcherStateMachine(windowLength: configuration.batchWindow)
        self.dispatcher = ToolDispatcher(registry: registry, clock: configuration.clock, logger: configuration.logger)
    }

    /// Runs until cancelled, blocked or failed.
    func run() async {
        guard let apiKey = configuration.apiKeyProvider(), !apiKey.isEmpty else {
            block("No API key: the apiKeyProvider returned nil or an empty string")
            return
        }
        backend = BackendClient(
            http: http, baseURL: configuration.baseURL.absoluteString, apiKey: apiKey, timeout: configuration.requestTimeout)
        var failures = 0
        while !Task.isCancelled {
            do throws(SetupFailure) {
                output.setState(.registering)
                try await checkCompatibility()
                try await registerFunctions()
                output.setState(.connecting)
                try await openSession(reuse: reuseNextSession)
                if let notice = pendingNotice {
                    output.system(notice)
                    pendingNotice = nil
                }
                failures = 0
                reuseNextSession = true
                switch await runSession() {
                case .cancelled: output.setState(.idle); return
                case .newSessionRequested: reuseNextSession = false
                case .sessionGone(let reason):
                    pendingNotice = reason
                    reuseNextSession = false
                case .sessionMissing: output.log("The session no longer exists; creating one", level: .warning)
                case .reopen(let reason): output.log(reason, level: .warning)
                case .blocked(let reason): block(reason); return
                case .failed(let reason): fail(reason); return
                }
            } catch {
                let why: String
                switch error {
                case .blocked(let reason):
                    block(reason)
                    return
                case .failed(let reason):
                    fail(reason)
                    return
                case .retry(let reason):
                    failures += 1
                    if let budget = configuration.reconnectAttemptBudget, failures > budget {
                        fail("Gave up after \(failures) attempts: \(reason)")
                        return
                    }
                    why = reason
                }
                let delay = Backoff.delay(forAttempt: failures)
                output.log("Setup failed (\(why)); retrying in \(delay)", level: .warning)
                output.setState(.reconnecting(attempt: failures, delay: delay))
                do { try await clock.sleep(untilElapsed: clock.elapsed + delay) } catch { break }
            }
        }
        output.setState(.idle)
    }

    func block(_ reason: String) {
        output.update { $0.lastError = reason }
        output.setState(.blocked(reason: reason))
        output.emit(.error(reason))
    }

    func fail(_ reason: String) {
        output.fail(reason)
        output.setState(.failed)
    }

    /// Ends the current session's work and starts a new session (the seed's "new chat").
    func requestNewSession() {
        control?.yield(.newSessionRequested)
        if control == nil { reuseNextSession = false }
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
