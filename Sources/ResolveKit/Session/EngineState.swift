import Foundation

/// The channels of a session's running work (``SessionEngine`` state); empty between sessions.
struct SessionChannels {
    /// Jobs to run beside the stream (tool calls, the deliverer, the turn watchdog), or the end of the session's
    /// work with a reason.
    var work: AsyncStream<SessionWork>.Continuation?
    /// Reopens the event stream without its cursor.
    var streamReset: AsyncStream<Void>.Continuation?
    /// Whether the result deliverer is queued or running; it ends once the outbox is empty.
    var isDelivering = false
    /// Whether the turn watchdog is queued or running; it ends with the turn.
    var isWatchingTurn = false
}

/// What a session's work loop is handed.
enum SessionWork: Sendable {
    /// A job to run in the session's task group.
    case run(@Sendable () async -> Void)
    /// The session's work ends, for this reason.
    case end(SessionEngine.SessionEnding)
}

/// How far the session's event stream has been read, and what must not be acted on twice.
struct StreamProgress {
    var cursor = CursorKeeper()
    /// Replayed events to ignore after a reopen without cursor (§10.9).
    var replayGuard: ReplayGuard?
    /// The server time of the newest event handled in this session (the cutoff of a replay without cursor).
    var newestHandledEventTime: Date?
    var handledEvents = HandledEvents()
}

/// Tasks suspended on the engine, resumed when what they wait for happens or the runtime stops.
struct EngineWaiters {
    /// `ask`s waiting for their turn's end, by request id.
    var turns: [String: OneShot<Result<ResolveKitTurnResult, ResolveKitError>>] = [:]
    /// `ask`s queued behind the running turn, first come first served.
    var asks: [OneShot<Bool>] = []
    /// Tasks waiting for the next session to open; `false` when the runtime stops first.
    var sessions: [OneShot<Bool>] = []
    /// Calls waiting for a slot under the concurrency limit, by call id.
    var slots: [String: CheckedContinuation<Bool, Never>] = [:]
}

/// What the connection has been through, for the decisions of the next setup.
struct ConnectionMemory {
    var hasOpenedStream = false
    /// The stream refreshed the token after a 403 and has not opened since; another 403 means chat is off.
    var refreshedSinceStreamOpened = false
    /// The last reason a connection attempt failed, for the `unreachable` error.
    var lastConnectFailure: (any Error & Sendable)?
}
