import ResolveKitHTTP

/// Where the session's connection stands: the setup step, the lifecycle's retry schedule, what the connection has
/// been through, and the counters that tell answers and stream elements of an earlier session or stream apart.
struct SessionLink: Sendable {
    enum Phase: Sendable, Equatable {
        case notStarted
        /// A setup request is out.
        case settingUp(SetupStep)
        /// Waiting to try setup again.
        case retrying
        /// A session is open (its stream may be reconnecting).
        case open
        /// The run is over.
        case ended
    }

    enum SetupStep: Sendable, Equatable {
        case register
        case createSession(reuse: Bool)
        case history
    }

    var phase = Phase.notStarted
    var lifecycle: SessionLifecycle
    /// Whether the setup under way (and its retries) reuses the last session.
    var reuseOnSetup = true
    var hasOpenedStream = false
    /// The stream refreshed the token after a 403 and has not opened since; another 403 means chat is off.
    var refreshedSinceStreamOpened = false
    /// The last reason a connection attempt failed, for the `unreachable` error.
    var lastConnectFailure: (any Error & Sendable)?
    /// Why the event stream is reconnecting, for the state hosts are shown.
    var streamReconnectCause: EventStreamError?
    /// When `start()` gives up if no stream has opened.
    var connectDeadline: Duration?
    /// The connection state hosts see.
    var shownState = ResolveKitConnectionState.idle
    /// Counts sessions opened: an answer tagged with an earlier epoch is about a session that is gone.
    var epoch = 0
    /// Counts streams opened: elements of an earlier stream are ignored.
    var streamGeneration = 0

    init(retryBudget: Int?) {
        lifecycle = SessionLifecycle(retryBudget: retryBudget)
    }

    var isOpen: Bool { phase == .open }
    var hasEnded: Bool { phase == .ended }
}

/// The session that is open: its access, what the backend said about it, and the functions it may call.
struct OpenSession: Sendable {
    var access: SessionAccess
    var response: SessionResponse
    /// The names the session may call: the backend's allow-list intersected with the registry.
    var allowedNames: Set<String>

    var id: String { access.id }
}
