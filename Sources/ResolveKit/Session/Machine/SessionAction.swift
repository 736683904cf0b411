import Foundation

/// What ``SessionMachine/handle(_:at:)`` asks its driver to do. The driver does each in order and feeds what
/// comes of it back as a ``SessionEvent``; it decides nothing itself.
enum SessionAction: Sendable, Equatable {
    /// Send a request; its answer comes back as ``SessionEvent/answered(_:_:)`` with `tag`.
    case send(BackendCall, access: SessionAccess?, tag: RequestTag)
    /// Open the event stream (replacing any open one) as `generation`, from `cursor`.
    case openStream(generation: Int, path: String, cursor: String?)
    /// Close the event stream.
    case closeStream
    /// Hand a batch of calls to the tools core; its steps come back as ``SessionEvent/call(_:epoch:)``.
    case runBatch(ToolCallBatch, sessionID: String, allowedNames: Set<String>, epoch: Int)
    /// Answer a call's ``SessionEvent/startRequested(_:epoch:)``: whether its function may start.
    case permitStart(ToolCallID, Bool)
    /// Stop calls handed to the tools core: those not started end with `error`; with `cancellingRunning`, running
    /// ones are cancelled too.
    case stopCalls([ToolCallID], sessionID: String, error: ResolveKitFunctionError, cancellingRunning: Bool)
    /// Write a change of the session's durable state; writes complete in order, each reported as
    /// ``SessionEvent/written(_:_:)`` with its `sequence`.
    case write(StateWrite, sequence: Int)
    /// Write an outcome the machine settled itself (the tools core audits the ones it ran) to the audit trail.
    case auditOutcome(PendingToolCall, sessionID: String, ToolCallOutcome)
    /// Fire ``SessionEvent/timerFired(_:at:)`` at `at` (replacing the timer of the same id).
    case arm(TimerID, at: Duration)
    /// Forget a timer.
    case disarm(TimerID)
    /// Show hosts a change.
    case publish(Publication)
    /// Answer the task waiting as `waiter`.
    case reply(WaiterID, Reply)
    /// The run is over: stop everything and return from `run()`.
    case finish
}

/// A change of a session's durable state.
enum StateWrite: Sendable, Equatable {
    /// Append these journal changes (one record each; the last record of a call wins), and delete the records of
    /// the calls the journal forgot, where the store can (a folder's file keeps them until it is replaced).
    case appendJournal([CallJournal.Entry], forgotten: [CallJournal.Key])
    /// Replace the journal's records with these entries, in no particular order (compaction: appends left many
    /// records per call).
    case replaceJournal([CallJournal.Entry])
    /// The session record (`nil` removes it).
    case session(SessionRecord?)
}

/// The requests the machine sends. The driver builds each body from the configuration (device id, client,
/// context, allow-list, locales) and the machine's values.
enum BackendCall: Sendable, Equatable {
    /// `GET /v1/sdk/compat` then `PUT /v1/functions/bulk` (once for all of a host's sessions).
    case register
    /// `POST /v1/sessions`, reusing the last session when `reuse`.
    case createSession(reuse: Bool)
    /// `GET /v1/sessions/{id}/messages`.
    case history
    /// `POST /v1/sessions/{id}/messages`.
    case message(text: String, requestID: String)
    /// `POST /v1/sessions/{id}/tool-results`.
    case toolResult(ToolResultSubmission)
    /// `PATCH /v1/sessions/{id}/context`.
    case context
    /// `GET /v1/sessions/{id}/localization`.
    case localization(locale: String?)
    /// `POST /v1/sessions/{id}/feedback`.
    case feedback(rating: Int, comment: String?)
}

/// Why a request was sent, so its answer goes where it belongs. `epoch` names the session it was sent for: an
/// answer about an earlier session is not acted on.
enum RequestTag: Hashable, Sendable {
    /// A setup step.
    case setup(epoch: Int)
    /// A token refresh, and what waits on it.
    case refresh(RefreshPurpose, epoch: Int)
    /// A user message, by request id.
    case message(requestID: String, epoch: Int)
    /// A result delivery.
    case delivery(ToolCallID, epoch: Int)
    /// The turn watchdog's look at the history.
    case watchdog(turnID: String, firstCheck: Bool, epoch: Int)
    /// A caller's operation.
    case operation(WaiterID, epoch: Int)
}

/// What a token refresh is for.
enum RefreshPurpose: Hashable, Sendable {
    /// The token is about to expire.
    case scheduled
    /// The stream was refused with 403 `chat_unavailable`.
    case stream
    /// A result delivery was refused with 403.
    case delivery
    /// Sending this message was refused with 403.
    case message(requestID: String)
}

/// The machine's timers.
enum TimerID: Hashable, Sendable {
    /// `start()`'s connect budget.
    case connectBudget
    /// The next setup attempt.
    case setupRetry
    /// The capability token's refresh.
    case tokenRefresh
    /// The running turn's watchdog.
    case turnWatchdog
    /// The batch window.
    case batchWindow
    /// The next result delivery after a failure.
    case deliveryRetry
    /// The next attempt to send the message out.
    case sendRetry
    /// An `ask`'s timeout.
    case askTimeout(WaiterID)
    /// How long an `ask` waits for a session to open.
    case sessionWait(WaiterID)
}

/// A change hosts see: the runtime's snapshot and its events.
enum Publication: Sendable, Equatable {
    case connection(ResolveKitConnectionState)
    /// A transcript message.
    case message(ResolveKitChatMessage)
    /// A notice from the runtime itself, as a system message.
    case notice(String)
    /// A log line (and the execution log); `span` is the context of the call it is about (else the line carries
    /// the turn's).
    case log(String, ResolveKitLogger.Level, span: SpanContext?)
    /// A problem worth telling: `lastError` and an error event.
    case error(ResolveKitError)
    /// A session was opened.
    case sessionOpened(SessionResponse)
    /// The history of a reused session: messages not yet shown are appended.
    case history([SessionMessage])
    /// The session started event.
    case sessionStarted(sessionID: String, reused: Bool)
    case turnStarted(turnID: String)
    case turnEnded(turnID: String?)
    /// How the turn of `requestID` ended and the tokens it used (telemetry: its span and the turn metrics).
    case turnFinished(
        requestID: String?, turnID: String?, outcome: Result<ResolveKitTurnResult.Ending, ResolveKitError>,
        usage: TokenUsage?)
    /// Whether a turn is being sent or runs (before its id is known).
    case turnInProgress(Bool)
    case draft(String?)
    /// A call that needs no approval, or is refused, joins the checklist.
    case immediateCall(ToolCallChecklistItem)
    /// A batch waits for approval.
    case batch([ToolCallChecklistItem])
    /// A call's row changed.
    case callUpdated(ToolCallChecklistItem)
    case delivered(ToolCallID)
    /// A message the user sent is pending, sent or failed.
    case delivery(messageID: String, ResolveKitChatMessage.Delivery)
    case feedbackRequested(immediate: Bool)
    case localization(LocalizationResponse)
}

/// An answer for a waiting task.
enum Reply: Sendable, Equatable {
    /// An `ask`'s turn ended, or the ask failed.
    case turn(Result<ResolveKitTurnResult, ResolveKitError>)
    /// A `sendMessage` was accepted or failed.
    case sent(ResolveKitSendOutcome)
    /// An operation or a drain finished.
    case done(Result<Void, ResolveKitError>)
    /// The conversation as the backend keeps it.
    case history(Result<[SessionMessage], ResolveKitError>)
    /// Feedback was recorded, or had been given already.
    case feedback(Result<ResolveKitFeedbackOutcome, ResolveKitError>)

    static func == (lhs: Self, rhs: Self) -> Bool {
        switch (lhs, rhs) {
        case (.turn(let a), .turn(let b)): a == b
        case (.sent(let a), .sent(let b)): a == b
        case (.done(.success), .done(.success)): true
        case (.done(.failure(let a)), .done(.failure(let b))): a == b
        case (.history(let a), .history(let b)): a == b
        case (.feedback(let a), .feedback(let b)): a == b
        default: false
        }
    }
}
