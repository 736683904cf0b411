import Foundation

/// One session's decisions, as a value: every ``SessionEvent`` goes in, the ``SessionAction``s to perform come
/// out, and nothing else happens — no `await`, no clock, no I/O. Time and randomness come in with the events, so
/// a scenario (a dropped stream, a 409, a lost turn, a restart) runs in microseconds with no server, and what the
/// runtime does in it can be read off the actions.
///
/// It composes the pure machines below it: ``SessionLifecycle`` and ``BackendFailurePolicy`` for setup and every
/// failed request, ``EventIntake`` for the stream's cursor and replays, ``TurnDesk`` (with ``TurnTracker`` and
/// ``TurnLockWatch``) for turns and the `ask`s waiting on them, and ``CallDesk`` (with ``ToolPipeline`` and the
/// ``CallJournal``) for tool calls and their results. ``SessionDriver`` performs the actions.
struct SessionMachine: Sendable {
    let settings: SessionSettings
    var link: SessionLink
    var session: OpenSession?
    var intake = EventIntake()
    var turns: TurnDesk
    var calls: CallDesk
    /// What `session.json` holds, as last written.
    var record: SessionRecord?
    /// The deadline of every armed timer: a timer that fires for another deadline was re-armed or disarmed.
    var timers: [TimerID: Duration] = [:]
    /// The caller waiting for a drain to finish.
    var drainWaiter: WaiterID?
    /// Which writes of durable state are out and which completed.
    var writes = WriteLog()
    /// Jitter for backoff delays, seeded so a run can be repeated.
    var random: SplitMix64

    /// A machine for `settings`; `seed` drives the backoff jitter.
    init(settings: SessionSettings, seed: UInt64 = 0x5eed) {
        self.settings = settings
        link = SessionLink(retryBudget: settings.reconnectAttemptBudget)
        turns = TurnDesk(watchdog: settings.turnWatchdog)
        calls = CallDesk(batchWindow: settings.batchWindow, journal: CallJournal())
        random = SplitMix64(seed: seed)
        writes = WriteLog(appliesAtOnce: settings.writesApplyAtOnce)
    }

    /// Takes one event at `now`; returns what to do, in order.
    mutating func handle(_ event: SessionEvent, at now: Moment) -> [SessionAction] {
        var out = SessionOutput()
        guard !link.hasEnded else {
            answerAfterEnd(event, &out)
            return out.actions
        }
        switch event {
        case .start(let restored, let hasAPIKey): start(restored, hasAPIKey: hasAPIKey, now, &out)
        case .answered(let tag, let result): answered(tag, result, now, &out)
        case .stream(let generation, let element):
            if generation == link.streamGeneration, session != nil { streamElement(element, now, &out) }
        case .streamEnded(let generation, let termination):
            if generation == link.streamGeneration, session != nil { streamEnded(termination, now, &out) }
        case .streamWillReconnect(let generation, let cause):
            if generation == link.streamGeneration { link.streamReconnectCause = cause }
        case .written(let sequence, let result): written(sequence, result, now, &out)
        case .timerFired(let timer, let at):
            guard timers[timer] == at else { break }
            timers[timer] = nil
            timerFired(timer, now, &out)
        case .call(let report, let epoch):
            if epoch == link.epoch { callReport(report, now, &out) }
        case .startRequested(let callID, let epoch):
            if epoch == link.epoch { startRequested(callID, &out) } else { out.append(.permitStart(callID, false)) }
        case .batchDone(let batchID, let epoch):
            // Batch 0 is a call that needed no approval: it never held the approval queue.
            if epoch == link.epoch, batchID != 0, let next = calls.pipeline.batchFinished() { present(next, now, &out) }
        case .ask(let waiter, let text, let requestID, let timeout):
            ask(waiter, text: text, requestID: requestID, timeout: timeout, now, &out)
        case .send(let waiter, let text, let requestID):
            sendMessage(waiter, text: text, requestID: requestID, now, &out)
        case .resend(let waiter, let requestID): resend(waiter, requestID: requestID, now, &out)
        case .cancelled(let waiter): cancelled(waiter, now, &out)
        case .operation(let waiter, let operation): perform(operation, for: waiter, &out)
        case .newSession: newSession(now, &out)
        case .drain(let waiter): drain(waiter, now, &out)
        case .stop: stop(now, &out)
        }
        if let waiter = drainWaiter, calls.isIdle, turns.askWaiters.isEmpty {
            drainWaiter = nil
            out.append(.reply(waiter, .done(.success(()))))
        }
        if settings.deliversOnly, link.isOpen, calls.isIdle { finishDelivering(&out) }
        compactJournalIfDue(&out)
        return out.actions
    }

    /// Whether the run is over.
    var hasEnded: Bool { link.hasEnded }

    /// Once the run is over, callers are answered at once and nothing else happens.
    private func answerAfterEnd(_ event: SessionEvent, _ out: inout SessionOutput) {
        let error = ResolveKitError(.notStarted, "Not connected: start the runtime first")
        switch event {
        case .ask(let waiter, _, _, _): out.append(.reply(waiter, .turn(.failure(error))))
        case .send(let waiter, _, _), .resend(let waiter, _): out.append(.reply(waiter, .sent(.failed(error))))
        case .operation(let waiter, _): out.append(.reply(waiter, .done(.failure(error))))
        case .drain(let waiter): out.append(.reply(waiter, .done(.success(()))))
        case .startRequested(let callID, _): out.append(.permitStart(callID, false))
        default: break
        }
    }

    /// The access of the open session, for the stream's headers of each connect (a refreshed token included).
    var access: SessionAccess? { session?.access }

    /// Routes an answer to the part that sent the request; an answer about an earlier session is dropped (its
    /// work ended, and a request it started cannot change the new one).
    private mutating func answered(
        _ tag: RequestTag, _ result: Result<BackendAnswer, BackendFailure>, _ now: Moment, _ out: inout SessionOutput
    ) {
        switch tag {
        case .setup(let epoch):
            if epoch == link.epoch { setupAnswered(result, now, &out) }
        case .refresh(let purpose, let epoch):
            if epoch == link.epoch { refreshAnswered(purpose, result, now, &out) }
        case .message(let requestID, let epoch):
            messageAnswered(requestID, result, sameSession: epoch == link.epoch, now, &out)
        case .delivery(let callID, let epoch):
            if epoch == link.epoch { deliveryAnswered(callID, result, now, &out) }
        case .watchdog(let turnID, let firstCheck, let epoch):
            if epoch == link.epoch { watchdogAnswered(turnID, firstCheck: firstCheck, result, now, &out) }
        case .operation(let waiter, _):
            operationAnswered(waiter, result, &out)
        }
    }

    private mutating func timerFired(_ timer: TimerID, _ now: Moment, _ out: inout SessionOutput) {
        switch timer {
        case .connectBudget: connectBudgetElapsed(now, &out)
        case .setupRetry: if link.phase == .retrying { setUp(reuse: link.reuseOnSetup, &out) }
        case .tokenRefresh: refreshToken(for: .scheduled, &out)
        case .turnWatchdog: armWatchdog(now, &out)
        case .batchWindow: if let batch = calls.pipeline.windowElapsed() { present(batch, now, &out) }
        case .deliveryRetry:
            calls.delivery.isWaiting = false
            kickDelivery(now, &out)
        case .sendRetry: resendMessage(now, &out)
        case .askTimeout(let waiter): askTimedOut(waiter, &out)
        case .sessionWait(let waiter): sessionWaitElapsed(waiter, &out)
        }
    }

    // MARK: Helpers every part uses

    mutating func arm(_ timer: TimerID, at deadline: Duration, _ out: inout SessionOutput) {
        timers[timer] = deadline
        out.append(.arm(timer, at: deadline))
    }

    mutating func disarm(_ timer: TimerID, _ out: inout SessionOutput) {
        guard timers.removeValue(forKey: timer) != nil else { return }
        out.append(.disarm(timer))
    }

    /// Shows a connection state once.
    mutating func show(_ state: ResolveKitConnectionState, _ out: inout SessionOutput) {
        guard link.shownState != state else { return }
        link.shownState = state
        out.append(.publish(.connection(state)))
    }

    /// Writes the session record: the cursor and whether the session holds a lost turn's lock.
    mutating func persistSession(_ now: Moment, _ out: inout SessionOutput) {
        guard let session else { return }
        let lost = turns.tracker.sessionMayHoldLostTurnLock
        let updated = SessionRecord(sessionID: session.id, cursor: intake.cursor.value, holdsLostTurnLock: lost)
        intake.cursor.written(now: now.elapsed)
        guard updated != record else { return }
        record = updated
        out.append(.write(.session(updated), sequence: writes.issue(journal: false)))
    }

    /// Writes the journal's changes. Only the changes travel: an action holding the journal itself would make the
    /// next change copy every entry.
    mutating func persistJournal(_ out: inout SessionOutput) {
        let changed = calls.journal.takeChangedEntries()
        let forgotten = calls.journal.takeForgottenKeys()
        guard !changed.isEmpty || !forgotten.isEmpty else { return }
        calls.journalRecords += changed.count
        // What is forgotten holds nothing back: a store that keeps it a while longer loses nothing.
        let write = StateWrite.appendJournal(changed, forgotten: forgotten)
        out.append(.write(write, sequence: writes.issue(journal: !changed.isEmpty)))
    }

    /// Once the store holds four records per journal entry (and at least 1,024), has it replaced by the current
    /// entries: after everything else the event brought (a result's post goes first), and with nothing waiting for
    /// it, since it holds no record the store does not already have. Only for a store that keeps every record it
    /// was given (a folder's file); the others delete what the journal forgets as it goes.
    private mutating func compactJournalIfDue(_ out: inout SessionOutput) {
        // Not after the run ended: the store may already be another run's.
        guard !link.hasEnded, settings.journalKeepsEveryRecord,
            calls.journalRecords > max(1024, calls.journal.entries.count * 4)
        else { return }
        // In no order: a store that keeps one (the folder's file) sorts them where it writes them, off this loop.
        let entries = Array(calls.journal.entries.values)
        calls.journalRecords = entries.count
        out.append(.write(.replaceJournal(entries), sequence: writes.issue(journal: false)))
    }

    /// A write completed: what waited for it goes on. A store that refuses because another process owns the key
    /// ends the run (that process answers for the calls now); any other failure is reported and the run goes on, as
    /// the journal in memory still keeps this process from running anything twice.
    private mutating func written(
        _ sequence: Int, _ result: Result<Void, ResolveKitError>, _ now: Moment, _ out: inout SessionOutput
    ) {
        writes.completed(sequence)
        if case .failure(let error) = result {
            if error.code == .keyOwnedElsewhere { return endRun(failed: error, now, &out) }
            out.publish(.error(error))
        }
        runDurableBatches(now, &out)
        permitDurableStarts(&out)
        kickDelivery(now, &out)
    }

    /// The next jitter in `0...1`.
    mutating func jitter() -> Double { random.nextUnit() }

    /// Ends the run: the stream closes and every timer is forgotten.
    mutating func finish(_ out: inout SessionOutput) {
        link.phase = .ended
        for timer in timers.keys { out.append(.disarm(timer)) }
        timers = [:]
        out.append(.closeStream)
        out.append(.finish)
    }
}

/// The writes of durable state issued and completed, in order: a batch is handed on, and a result posted, only once
/// the journal records it depends on are written.
struct WriteLog: Sendable, Equatable {
    private(set) var issued = 0
    private(set) var completed = 0
    /// The last journal write issued.
    private(set) var lastJournal = 0
    /// Whether the store applies a write before the driver performs the next action (a state folder, memory): an
    /// action after the write may count on it, and its completion is only a report.
    var appliesAtOnce = false

    /// The next write's sequence number.
    mutating func issue(journal: Bool) -> Int {
        issued += 1
        if journal { lastJournal = issued }
        if appliesAtOnce { completed = issued }
        return issued
    }

    mutating func completed(_ sequence: Int) {
        completed = max(completed, sequence)
    }

    /// Whether every journal write issued so far has completed.
    var journalIsDurable: Bool { completed >= lastJournal }
}

/// The actions one event produced, with shorthands for the common ones.
struct SessionOutput: Sendable {
    private(set) var actions: [SessionAction] = []

    mutating func append(_ action: SessionAction) {
        // One allocation for the handful of actions an event brings, instead of one per doubling.
        if actions.isEmpty { actions.reserveCapacity(8) }
        actions.append(action)
    }

    mutating func publish(_ publication: Publication) { append(.publish(publication)) }

    /// A log line; `span` is the context of the call it is about, when it is about one.
    mutating func log(_ line: String, _ level: ResolveKitLogger.Level = .debug, span: SpanContext? = nil) {
        append(.publish(.log(line, level, span: span)))
    }
}

/// A small, fast, seeded generator (SplitMix64): backoff jitter that a test can repeat.
struct SplitMix64: Sendable, Equatable {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0...1`.
    mutating func nextUnit() -> Double { Double(next() >> 11) / Double(1 << 53) }
}
