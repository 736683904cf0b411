/// The session lifecycle as a pure machine: setup → open → (reopen | new session | recreate | blocked | failed),
/// with the retry schedule of failed setups. The driver runs setup and the session's work and tells the machine
/// how each ended; the machine says what comes next. Which failures block, fail or retry is decided before, by
/// ``BackendFailurePolicy``.
struct SessionLifecycle: Sendable {
    /// What the driver does next.
    enum Action: Sendable, Equatable {
        /// Run setup again, opening a session that reuses the last one when `reuse`.
        case setUp(reuse: Bool)
        /// Wait `delay`, then run setup again; `attempt` counts the failures in a row.
        case retry(attempt: Int, delay: Duration)
        /// Stop: the runtime must not connect.
        case block(ResolveKitError)
        /// Stop: the runtime gave up.
        case fail(ResolveKitError)
    }

    private var failures = 0
    /// Whether a session ever opened: until then, a failure no retry can fix ends the runtime at once; after, the same
    /// failure (a name that stopped resolving) is more likely an outage, and is retried like any other.
    private var hasOpened = false
    private var reuseNextSession = true
    private var pendingNotice: String?
    let retryBudget: Int?

    init(retryBudget: Int?) {
        self.retryBudget = retryBudget
    }

    /// The first step.
    func start() -> Action { .setUp(reuse: true) }

    /// Setup succeeded: the session is open. Returns the notice to tell the user now, if any.
    mutating func opened() -> String? {
        failures = 0
        hasOpened = true
        reuseNextSession = true
        defer { pendingNotice = nil }
        return pendingNotice
    }

    /// Setup failed in a way retrying may fix, by ``BackendFailurePolicy``'s table; one whose cause no retry can fix
    /// (``BackendFailurePolicy/isUnfixableByRetry(_:)``) fails at once if no session ever opened.
    mutating func setupFailed(_ cause: any Error & Sendable, jitter: Double = Double.random(in: 0...1)) -> Action {
        if !hasOpened, BackendFailurePolicy.isUnfixableByRetry(cause) {
            return .fail(ResolveKitError(
                .unreachable, "Gave up at once, as retrying cannot help: \(cause)", isRetryable: false,
                underlying: cause))
        }
        failures += 1
        if let retryBudget, failures > retryBudget {
            let retries = retryBudget == 1 ? "1 retry" : "\(retryBudget) retries"
            return .fail(ResolveKitError(.unreachable, "Gave up after \(retries): \(cause)", underlying: cause))
        }
        return .retry(attempt: failures, delay: Backoff.delay(forAttempt: failures, random: jitter))
    }

    /// A new session was asked for while none runs (the next setup must not reuse the last one).
    mutating func newSessionRequested() {
        reuseNextSession = false
    }

    /// The session's work ended for `ending`: what comes next.
    mutating func sessionEnded(_ ending: SessionMachine.SessionEnding) -> Action {
        switch ending {
        case .newSessionRequested: return .setUp(reuse: false)
        case .sessionGone(let reason):
            pendingNotice = reason
            return .setUp(reuse: false)
        case .sessionMissing, .reopen: return .setUp(reuse: true)
        case .blocked(let error): return .block(error)
        case .failed(let error): return .fail(error)
        }
    }

    /// Whether the next setup reuses the last session.
    var reuses: Bool { reuseNextSession }
}
