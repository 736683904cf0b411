/// The session's turns as callers see them: the running turn and what it produced, the `ask`s waiting behind it
/// or for a session, the message being sent, and what a turn lock held by nobody's turn means (§7.6). State only;
/// ``SessionMachine`` decides with it.
struct TurnDesk: Sendable {
    /// A message a caller wants sent.
    struct Outgoing: Sendable, Equatable {
        enum Kind: Sendable, Equatable {
            /// `ask`: the waiter wants the turn's result.
            case ask
            /// `sendMessage`: the waiter wants to know it was accepted.
            case send
        }

        var waiter: WaiterID
        var kind: Kind
        var text: String
        var requestID: String
        /// Attempts so far that failed in a way retrying may fix (not counting a held turn lock).
        var attempts = 0
        /// The token was refreshed for this message already.
        var refreshed = false
        /// A message sent again by `resend`: it is in the transcript already.
        var isResend = false
        /// The message was moved to a new session once (its first one had ended): it is not moved again.
        var movedToNewSession = false
    }

    var tracker: TurnTracker
    var record: TurnRecord?
    /// `ask`s waiting for the running turn to end, first come first served.
    var queue: [Outgoing] = []
    /// `ask`s waiting for a session to open.
    var awaitingSession: [Outgoing] = []
    /// The message being sent (or to be sent in the next session).
    var outgoing: Outgoing?
    /// The `ask` waiting for each sent request's turn to end, by request id.
    var askWaiters: [String: WaiterID] = [:]
    /// The time each `ask` allowed itself, for the error when it runs out.
    var timeouts: [WaiterID: Duration] = [:]
    /// Messages that could not be sent, by request id, for `resend` (the newest few).
    var unsent: [(requestID: String, text: String)] = []
    var lock: TurnLockWatch

    init(watchdog: Duration) {
        tracker = TurnTracker(period: watchdog)
        lock = TurnLockWatch(period: watchdog)
    }

    /// Whether `waiter` is an `ask` still waiting here, and where.
    func isWaiting(_ waiter: WaiterID) -> Bool {
        queue.contains { $0.waiter == waiter } || awaitingSession.contains { $0.waiter == waiter }
            || outgoing?.waiter == waiter || askWaiters.values.contains(waiter)
    }

    /// Takes `waiter` out of every place it may wait; returns the request id it waited on, if it was sent.
    mutating func forget(_ waiter: WaiterID) -> (wasQueued: Bool, requestID: String?) {
        let wasQueued = queue.contains { $0.waiter == waiter }
        queue.removeAll { $0.waiter == waiter }
        awaitingSession.removeAll { $0.waiter == waiter }
        let sent = askWaiters.first { $0.value == waiter }?.key
        if let sent { askWaiters[sent] = nil }
        timeouts[waiter] = nil
        return (wasQueued, sent ?? (outgoing?.waiter == waiter ? outgoing?.requestID : nil))
    }

    /// The turn so far, for an error that ends the wait of `requestID` early.
    func turnSoFar(of requestID: String?) -> ResolveKitTurnResult? {
        guard let record, let requestID, record.requestID == requestID else { return nil }
        return record.result(.unfinished)
    }
}

/// What a `409` on `POST /messages` means. The backend holds one turn's lock per session; when the turn holding it
/// is one nobody follows — lost in this process or an earlier one, or left by a process that died — waiting for
/// the lock can take up to ten minutes (§7.6). A session known to hold a lost turn's lock is replaced at once; any
/// other is replaced once it has shown no sign of life (no event of any turn) for one watchdog period. Pure.
struct TurnLockWatch: Sendable, Equatable {
    enum Verdict: Sendable, Equatable {
        /// Open a new session and send the message there.
        case replaceSession
        /// Send again with the same request id after this long.
        case retry(after: Duration)
    }

    let period: Duration
    /// When the session last showed that a turn is alive: it opened, or an event arrived.
    private(set) var lastSignOfLife: Duration = .zero

    init(period: Duration) {
        self.period = period
    }

    /// The session opened (or was reused) at `now`.
    mutating func sessionOpened(now: Duration) {
        lastSignOfLife = now
    }

    /// An event arrived on the stream at `now`.
    mutating func sawActivity(now: Duration) {
        lastSignOfLife = max(lastSignOfLife, now)
    }

    /// The `attempt`-th conflict in a row at `now`; `holdsLostLock` when this session is known to hold the lock of
    /// a turn declared lost.
    func conflict(now: Duration, attempt: Int, holdsLostLock: Bool) -> Verdict {
        if holdsLostLock { return .replaceSession }
        let silent = now - lastSignOfLife
        guard silent < period else { return .replaceSession }
        // The lock is released just after a turn's last event (§7.2): retry soon, then less often.
        let backoff = Duration.milliseconds(500) * min(max(attempt, 1), 10)
        return .retry(after: min(backoff, period - silent))
    }
}
