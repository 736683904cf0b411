/// The session's turn: whether one is being sent or runs, when it last showed activity, and what the watchdog must
/// do about a silent one. Pure: the engine feeds it events and the clock, and acts on its answers.
///
/// A turn may end with no event at all (WireProtocol §7.2), and a restarted backend loses the turn while still
/// holding its lock (§7.6). So a turn with no activity and no call outstanding for one watchdog period is
/// reconciled from the history; if it is still silent a period later it is declared lost, and the session is
/// remembered as possibly locked, so a 409 on the next send replaces the session instead of waiting out the lock.
struct TurnTracker: Sendable {
    enum Phase: Sendable, Equatable {
        case idle
        /// `POST /messages` is out; the turn id is not known yet.
        case sending(requestID: String)
        /// The turn runs; `requestID` is `nil` for a turn adopted from the events of another client.
        case running(turnID: String, requestID: String?)
    }

    enum WatchdogAction: Sendable, Equatable {
        /// Nothing to do before this time.
        case sleep(until: Duration)
        /// Ask the history whether the turn ended unseen; on the first check, also reopen the stream.
        case reconcile(firstCheck: Bool)
    }

    private(set) var phase = Phase.idle
    private(set) var lastActivity: Duration = .zero
    /// A turn was declared lost in this session: the server may still hold its lock.
    private(set) var sessionMayHoldLostTurnLock = false
    private var silentChecks = 0
    let period: Duration

    init(period: Duration) {
        self.period = period
    }

    var isBusy: Bool { phase != .idle }

    /// The request being sent, before its turn id is known.
    var sendingRequestID: String? {
        if case .sending(let requestID) = phase { requestID } else { nil }
    }

    var turnID: String? {
        if case .running(let turnID, _) = phase { turnID } else { nil }
    }

    var requestID: String? {
        switch phase {
        case .idle: nil
        case .sending(let requestID): requestID
        case .running(_, let requestID): requestID
        }
    }

    /// Takes the session for a new message; `false` when a turn is already being sent or runs.
    mutating func beginSending(requestID: String) -> Bool {
        guard phase == .idle else { return false }
        phase = .sending(requestID: requestID)
        return true
    }

    /// The backend accepted `requestID` as `turnID`; `true` when this starts the turn (the events may have
    /// started it already).
    mutating func accepted(turnID: String, requestID: String, now: Duration) -> Bool {
        guard phase == .sending(requestID: requestID) else { return false }
        start(.running(turnID: turnID, requestID: requestID), now: now)
        return true
    }

    /// Sending `requestID` failed: the session is free again.
    mutating func sendFailed(requestID: String) {
        if phase == .sending(requestID: requestID) { phase = .idle }
    }

    /// An event of `turnID` arrived: adopts the turn when its request is the one out (the `POST` answer may be
    /// lost) and counts as activity. Returns `true` when this starts the turn.
    mutating func observed(turnID: String, requestID: String, now: Duration) -> Bool {
        if phase == .sending(requestID: requestID) {
            start(.running(turnID: turnID, requestID: requestID), now: now)
            return true
        }
        if self.turnID == turnID { noteActivity(now: now) }
        return false
    }

    /// Something happened for the running turn (an event, a call's outcome). It does not undo a watchdog check:
    /// the stream reopened by the first check replays the turn's old events, which are no progress.
    mutating func noteActivity(now: Duration) {
        lastActivity = now
    }

    /// Whether an event of `turnID` / `requestID` ends the current turn.
    func isCurrent(turnID: String, requestID: String) -> Bool {
        switch phase {
        case .idle: false
        case .sending(let sent): sent == requestID
        case .running(let running, _): running == turnID
        }
    }

    /// The turn ended; returns the ended turn's ids.
    mutating func finish() -> (turnID: String?, requestID: String?) {
        defer { phase = .idle }
        return (turnID, requestID)
    }

    /// The watchdog declared the turn lost: ends it and remembers the server may still hold its lock.
    mutating func declareLost() -> (turnID: String?, requestID: String?) {
        sessionMayHoldLostTurnLock = true
        return finish()
    }

    /// The session is known, from an earlier process, to hold the lock of a turn declared lost.
    mutating func assumeLostTurnLock() {
        sessionMayHoldLostTurnLock = true
    }

    /// A new session was opened: nothing of the old one's turn survives. A message still being sent goes on: it
    /// is sent to the new session.
    mutating func reset() {
        if case .running = phase { phase = .idle }
        sessionMayHoldLostTurnLock = false
        silentChecks = 0
    }

    /// What the watchdog does now: with no turn, or calls still outstanding (an approval or a function may take
    /// long), check again a full period later; otherwise wake when the turn has been silent for a period.
    mutating func watchdog(now: Duration, hasOutstandingCalls: Bool) -> WatchdogAction {
        guard turnID != nil, !hasOutstandingCalls else {
            silentChecks = 0
            return .sleep(until: now + period)
        }
        let due = lastActivity + period
        guard now >= due else { return .sleep(until: due) }
        silentChecks += 1
        lastActivity = now
        return .reconcile(firstCheck: silentChecks == 1)
    }

    private mutating func start(_ running: Phase, now: Duration) {
        phase = running
        silentChecks = 0
        noteActivity(now: now)
    }
}
