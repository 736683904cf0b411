import ResolveKitTelemetry
import Synchronization

/// What one session records beside its machine: each question's turn (its `invoke_agent` span and the turn
/// metrics), the parent of each request and call, its results' delivery, its stream, and the session itself.
///
/// The driver tells it what it performs — a question asked, a request sent and answered, a stream element, a
/// publication, a reply — and it only records; it decides nothing for the session. Calls are recorded by the tools
/// core (``ToolCallRunner``), under the parent this gives them.
final class SessionTelemetry: Sendable {
    /// One question, from `ask` or `sendMessage` to the end of its turn.
    struct TurnTrace {
        var span: Span?
        /// The context the turn's requests and calls descend from: its span's, or the host's when not traced.
        var context: SpanContext?
        var startedAt: Duration
        /// `POST /messages` went out at least once: the turn may run on the server.
        var posted = false
        var turnID: String?
        /// How the caller stopped waiting first (its timeout, or it was cancelled), if it did.
        var callerEnding: ResolveKitMetrics.TurnEnding?
    }

    /// One call from its span's start until its result was delivered: its result's post descends from its span.
    struct CallTrace {
        var context: SpanContext?
        /// When its function ended (or its post was first sent, for an outcome settled without running).
        var finishedAt: Duration?
        var attempts = 0
        var lastFailure: ResolveKitMetrics.RetryReason?

        /// Its function ended now, under `context`.
        mutating func finished(at now: Duration, under context: SpanContext?) {
            finishedAt = now
            self.context = context
        }

        /// Its result is sent once more (timed from now if its end was not seen); returns what its request's trace
        /// and the retry count need.
        mutating func sending(
            at now: Duration
        ) -> (context: SpanContext?, attempts: Int, lastFailure: ResolveKitMetrics.RetryReason?) {
            attempts += 1
            if finishedAt == nil { finishedAt = now }
            return (context, attempts, lastFailure)
        }
    }

    struct State {
        /// Questions by request id.
        var turns: [String: TurnTrace] = [:]
        /// The question each waiting caller asked.
        var waiters: [WaiterID: String] = [:]
        /// The question posted last whose turn has not ended: log lines meanwhile carry its trace.
        var current: String?
        /// When turns not asked here (another client's) were first seen, by turn id.
        var otherTurns: [String: Duration] = [:]
        /// Each call until its result is delivered.
        var calls: [ToolCallID: CallTrace] = [:]
        var sessionID: String?
        var countsOpenSession = false
    }

    let metrics: ResolveKitMetrics?
    /// Starts spans; `nil` when none are recorded (contexts a host passes in still propagate).
    let tracer: Tracer?
    let clock: ResolveKitClock
    let state = Mutex(State())
    /// Questions with a trace open: while there are none and nothing is recorded, calls need no parent.
    private let openTraces = Atomic<Int>(0)

    init(metrics: ResolveKitMetrics?, tracer: Tracer?, clock: ResolveKitClock) {
        self.metrics = metrics
        self.tracer = tracer
        self.clock = clock
    }

    /// What `configuration`'s telemetry records for a runtime of `functionNames`: the catalog shared by every
    /// runtime of that telemetry, and its tracer when spans are exported.
    /// - Throws: ``ResolveKitError/Code/invalidConfiguration`` when the telemetry's registry cannot take the
    ///   catalog (other code registered one of its names there).
    convenience init(_ configuration: ResolveKitConfiguration, functionNames: [String]) throws(ResolveKitError) {
        guard let telemetry = configuration.telemetry else {
            self.init(metrics: nil, tracer: nil, clock: configuration.clock)
            return
        }
        do {
            self.init(
                metrics: try telemetry.metrics(functionNames: functionNames), tracer: telemetry.recordingTracer,
                clock: configuration.clock)
        } catch {
            throw ResolveKitError(
                .invalidConfiguration, "The telemetry's registry cannot take the runtime's metrics: \(error.message)",
                underlying: error)
        }
    }

    /// Whether anything is recorded.
    var isOn: Bool { metrics != nil || tracer != nil }

    /// Whether a question's trace is open (a host's context propagates even when nothing is recorded).
    var hasOpenTraces: Bool { openTraces.load(ordering: .relaxed) > 0 }

    // MARK: Questions and turns

    /// A caller asked (`ask`) or sent (`sendMessage`) `requestID` as `waiter`, under the host's `parent` context.
    /// The turn's `gen_ai.conversation.id` is set when its message is posted.
    func asked(requestID: String, waiter: WaiterID, parent: SpanContext?) {
        guard isOn || parent != nil else { return }
        let span = tracer?.startTurn(
            sessionID: "", requestID: requestID, parent: parent.map(SpanParent.context) ?? .root)
        let trace = TurnTrace(span: span, context: span?.context ?? parent, startedAt: clock.elapsed)
        state.withLock { state in
            state.turns[requestID] = trace
            state.waiters[waiter] = requestID
        }
        openTraces.add(1, ordering: .relaxed)
    }

    /// The machine ended the turn of `requestID` (or of `turnID`, when it was not asked here).
    func turnFinished(
        requestID: String?, turnID: String?, outcome: Result<ResolveKitTurnResult.Ending, ResolveKitError>,
        usage: TokenUsage?
    ) {
        let ending: ResolveKitMetrics.TurnEnding
        switch outcome {
        case .success(.agentError): ending = .agentError
        case .success(.escalated): ending = .escalated
        case .success: ending = .answered
        case .failure(let error): ending = error.code == .turnLost ? .lost : .failed
        }
        let now = clock.elapsed
        let (trace, seenAt) = state.withLock { state -> (TurnTrace?, Duration?) in
            let seenAt = turnID.flatMap { state.otherTurns.removeValue(forKey: $0) }
            return (requestID.flatMap { take($0, &state) }, seenAt)
        }
        if let trace {
            end(trace, ending: trace.callerEnding ?? ending, turnID: turnID, usage: usage, now: now)
        } else if turnID != nil {
            metrics?.turnFinished(ending: ending, duration: now - (seenAt ?? now), usage: usage)
        }
    }

    /// A turn became visible; one not asked here is timed from now.
    func turnStarted(turnID: String) {
        guard metrics != nil else { return }
        let now = clock.elapsed
        state.withLock { state in
            guard !state.turns.values.contains(where: { $0.turnID == turnID }) else { return }
            // A session runs one turn at a time: more than a few unfinished ones were replaced, not still running.
            if state.otherTurns.count >= 16, let stale = state.otherTurns.min(by: { $0.value < $1.value })?.key {
                state.otherTurns[stale] = nil
            }
            state.otherTurns[turnID] = now
        }
    }

    /// A waiting caller was answered: a question never posted, or whose message failed, ends here; a caller that
    /// stopped waiting leaves its turn running, to end as `timed_out` or `cancelled`.
    func replied(_ waiter: WaiterID, _ reply: Reply) {
        guard isOn || hasOpenTraces else { return }
        let now = clock.elapsed
        let ended = state.withLock { state -> TurnTrace? in
            guard let requestID = state.waiters.removeValue(forKey: waiter), var trace = state.turns[requestID] else {
                return nil
            }
            let gaveUp: ResolveKitMetrics.TurnEnding?
            switch reply {
            case .sent(.accepted), .turn(.success), .done, .history, .feedback: return nil
            case .sent: gaveUp = nil
            case .turn(.failure(let error)):
                switch error.code {
                case .turnTimedOut: gaveUp = .timedOut
                case .cancelled: gaveUp = .cancelled
                default: gaveUp = nil
                }
            }
            if let gaveUp, trace.posted {
                trace.callerEnding = gaveUp
                state.turns[requestID] = trace
                return nil
            }
            trace.callerEnding = gaveUp ?? .failed
            return take(requestID, &state).map { _ in trace }
        }
        if let ended { end(ended, ending: ended.callerEnding ?? .failed, turnID: ended.turnID, usage: nil, now: now) }
    }

    private func take(_ requestID: String, _ state: inout State) -> TurnTrace? {
        guard let trace = state.turns.removeValue(forKey: requestID) else { return nil }
        if state.current == requestID { state.current = nil }
        return trace
    }

    private func end(
        _ trace: TurnTrace, ending: ResolveKitMetrics.TurnEnding, turnID: String?, usage: TokenUsage?, now: Duration
    ) {
        openTraces.subtract(1, ordering: .relaxed)
        metrics?.turnFinished(ending: ending, duration: now - trace.startedAt, usage: usage)
        trace.span?.finishTurn(ending: ending, turnID: turnID ?? trace.turnID, usage: usage)
    }

    /// The log details of the turn running now: its `trace_id` and `span_id`.
    func logMetadata() -> [String: String] {
        guard hasOpenTraces else { return [:] }
        return state.withLock { state in state.current.flatMap { state.turns[$0]?.context }?.logMetadata ?? [:] }
    }

    // MARK: Calls

    /// Where the calls of a batch sit: under their question's turn.
    var callTrace: ToolCallTrace {
        guard isOn || hasOpenTraces else { return .none }
        return ToolCallTrace(
            parent: { [self] call in
                self.turnContext(requestID: call.requestID, turnID: call.turnID).map(SpanParent.context) ?? .root
            },
            finished: { [self] callID, context in self.callFinished(callID, context: context) })
    }

    /// The context of the turn of `requestID`, or of `turnID`.
    func turnContext(requestID: String?, turnID: String?) -> SpanContext? {
        guard hasOpenTraces else { return nil }
        return state.withLock { state in
            guard !state.turns.isEmpty else { return nil }
            if let requestID, let trace = state.turns[requestID] { return trace.context }
            guard let turnID else { return nil }
            return state.turns.values.first { $0.turnID == turnID }?.context
        }
    }

    /// A call's function ended (or it was settled): its result's delivery is timed from now, and descends from
    /// `context`, the call's span's (or, not traced, the turn's or the host's it ran under).
    func callFinished(_ callID: ToolCallID, context: SpanContext?) {
        guard metrics != nil || context != nil else { return }
        let now = clock.elapsed
        // Changed where it is stored: one lookup, and no copy of the entry out and back.
        state.withLock { $0.calls[callID, default: CallTrace()].finished(at: now, under: context) }
    }

    // MARK: The session

    /// A session opened: the process has one open session more (once per runtime); results still on their way in
    /// an earlier session can no longer be posted.
    func sessionOpened(_ sessionID: String) {
        let (count, abandoned) = state.withLock { state -> (Bool, Int) in
            let count = !state.countsOpenSession
            state.countsOpenSession = true
            var abandoned = 0
            if let previous = state.sessionID, previous != sessionID {
                abandoned = state.calls.values.count { $0.finishedAt != nil }
                state.calls = [:]
            }
            state.sessionID = sessionID
            return (count, abandoned)
        }
        if count { metrics?.sessionOpened() }
        for _ in 0..<abandoned { metrics?.resultAbandoned() }
    }

    /// The run ended: what it still counted is given back, open turns end as cancelled.
    func finished(queuedAsks: Int, journalEntries: Int) {
        let now = clock.elapsed
        let (open, counted) = state.withLock { state -> ([TurnTrace], Bool) in
            let open = Array(state.turns.values)
            let counted = state.countsOpenSession
            state = State()
            return (open, counted)
        }
        for trace in open { end(trace, ending: trace.callerEnding ?? .cancelled, turnID: nil, usage: nil, now: now) }
        if counted { metrics?.sessionClosed() }
        changed(queuedAsks: -queuedAsks, journalEntries: -journalEntries)
    }

    /// The machine's queue of questions and its journal changed size by these amounts.
    func changed(queuedAsks: Int, journalEntries: Int) {
        guard let metrics else { return }
        for _ in 0..<max(0, queuedAsks) { metrics.askQueued() }
        for _ in 0..<max(0, -queuedAsks) { metrics.askDequeued() }
        if journalEntries != 0 { metrics.journalSizeChanged(by: journalEntries) }
    }
}
