import Foundation

/// Setup (registration, `POST /v1/sessions`, the history), the end of a session's work, and the end of the run.
extension SessionMachine {
    /// Why a session's work ended.
    enum SessionEnding: Sendable, Equatable {
        case newSessionRequested
        /// The session is expired, closed or escalated (410), or holds a lost turn's lock: start a new one and tell
        /// the user this.
        case sessionGone(String)
        /// The session no longer exists for this app (404): create one again.
        case sessionMissing
        /// The session's access broke in a way setup can repair: run setup again, reusing the session.
        case reopen(String)
        case blocked(ResolveKitError)
        case failed(ResolveKitError)
    }

    mutating func start(_ restored: Restored, hasAPIKey: Bool, _ now: Moment, _ out: inout SessionOutput) {
        guard link.phase == .notStarted else { return }
        record = restored.session
        calls.journal = restored.journal
        calls.journalRecords = restored.journalRecords
        let interrupted = calls.journal.resolveInterruptedCalls()
        persistJournal(&out)
        for entry in interrupted { recordInterrupted(entry, &out) }
        guard hasAPIKey else {
            let error = ResolveKitError(.missingAPIKey, "No API key: the apiKeyProvider returned nil or an empty string")
            endRun(blocked: error, now, &out)
            return
        }
        if let budget = settings.connectTimeout {
            link.connectDeadline = now.elapsed + budget
            arm(.connectBudget, at: now.elapsed + budget, &out)
        }
        setUp(reuse: true, &out)
    }

    /// A call the last process left unfinished, answered now: its outcome line goes to the audit trail, which the
    /// process that died could not write, and to the log, once.
    private func recordInterrupted(_ entry: CallJournal.Entry, _ out: inout SessionOutput) {
        guard case .answered(let outcome) = entry.status else { return }
        let call = PendingToolCall(
            callID: entry.key.callID, turnID: entry.turnID, functionName: entry.functionName, arguments: [:],
            humanDescription: "", requiresApproval: false, timeoutSeconds: 0, receivedAt: .zero)
        out.append(.auditOutcome(call, sessionID: entry.key.sessionID, outcome))
        let named = "Tool call \(entry.key.callID.rawValue) (\(entry.functionName)) of session \(entry.key.sessionID)"
        out.log("\(named): \(outcome.failure?.message ?? "")", .warning)
    }

    /// Runs setup from its first step; the session it opens reuses the last one when `reuse`.
    mutating func setUp(reuse: Bool, _ out: inout SessionOutput) {
        link.reuseOnSetup = reuse
        link.phase = .settingUp(.register)
        show(.registering, &out)
        out.append(.send(.register, access: nil, tag: .setup(epoch: link.epoch)))
    }

    /// A setup request answered: the next step, or the failure's consequence.
    mutating func setupAnswered(_ result: Result<BackendAnswer, BackendFailure>, _ now: Moment, _ out: inout SessionOutput) {
        guard case .settingUp(let step) = link.phase else { return }
        switch (step, result) {
        case (.register, .success):
            let reuse = link.reuseOnSetup
            link.phase = .settingUp(.createSession(reuse: reuse))
            show(.connecting, &out)
            out.append(.send(.createSession(reuse: reuse), access: nil, tag: .setup(epoch: link.epoch)))
        case (.createSession, .success(.session(let response))):
            adopt(response, now, &out)
        case (.history, .success(.history(let messages))):
            out.publish(.history(messages))
            let turnInProgress = messages.last?.role == "user"
            if let session {
                intake.guardReplayOfReusedSession(
                    lastActivityAt: session.response.lastActivityAt, turnInProgress: turnInProgress)
            }
            sessionReady(now, &out)
        case (.history, .failure(let failure)):
            out.log("Could not load the history: \(failure)", .warning)
            if let session {
                intake.guardReplayOfReusedSession(lastActivityAt: session.response.lastActivityAt, turnInProgress: false)
            }
            sessionReady(now, &out)
        case (_, .failure(let failure)):
            setupFailed(failure, now, &out)
        case (_, .success):
            setupFailed(.backend(Self.unexpected(step), .createSession), now, &out)
        }
    }

    private static func unexpected(_ step: SessionLink.SetupStep) -> BackendError {
        BackendError(code: .invalidResponse, endpoint: "setup", message: "An answer that does not fit \(step)")
    }

    /// What a failed setup request means, from ``BackendFailurePolicy``; retried with the lifecycle's backoff.
    private mutating func setupFailed(_ failure: BackendFailure, _ now: Moment, _ out: inout SessionOutput) {
        let error: BackendError
        let endpoint: BackendFailurePolicy.Endpoint
        switch failure {
        case .unsupported(let minimum, let majors):
            let message = "This SDK (\(ResolveKitDefaults.sdkVersion)) is not supported by the backend (minimum "
                + "\(minimum), majors \(majors))"
            endRun(blocked: ResolveKitError(.unsupportedSDK, message), now, &out)
            return
        case .backend(let cause, let at):
            (error, endpoint) = (cause, at)
        }
        switch BackendFailurePolicy.action(endpoint, error) {
        case .block(let code):
            endRun(blocked: ResolveKitError(code, Self.blockMessage(code, error), underlying: error), now, &out)
        case .retry:
            link.lastConnectFailure = error
            switch link.lifecycle.setupFailed(error, jitter: jitter()) {
            case .retry(let attempt, let delay):
                out.log("Setup failed (\(error)); retrying in \(delay.inWords)", .warning)
                show(.reconnecting(attempt: attempt, delay: delay, cause: ResolveKitError(connectFailure: error)), &out)
                link.phase = .retrying
                arm(.setupRetry, at: now.elapsed + delay, &out)
            case .fail(let error): endRun(failed: error, now, &out)
            default: endRun(failed: ResolveKitError(.backend, "Setup stopped: \(error)", underlying: error), now, &out)
            }
        default:
            let refused = ResolveKitError(.backend, "The backend refused the request: \(error)", underlying: error)
            endRun(failed: refused, now, &out)
        }
    }

    /// The words for a stop that needs a change on this side.
    static func blockMessage(_ code: ResolveKitError.Code, _ error: BackendError) -> String {
        switch code {
        case .apiKeyRejected: "The backend rejected the API key (\(error)); check RESOLVEKIT_API_KEY or the key file"
        case .chatUnavailable: "Chat is unavailable for this app (403 chat_unavailable); it is switched off on the backend"
        default: error.description
        }
    }

    /// Takes over a session response: id, token, allow-list, and the cursor and turn-lock knowledge stored for it.
    private mutating func adopt(_ response: SessionResponse, _ now: Moment, _ out: inout SessionOutput) {
        let previousID = session?.id
        session = makeSession(response)
        if !link.hasOpenedStream, !settings.deliversOnly {
            // The backend answers: what is left is the stream's first connect, which its idle watchdog bounds.
            link.lastConnectFailure = nil
            if let deadline = link.connectDeadline {
                let extended = max(deadline, now.elapsed + settings.streamIdleTimeout + .seconds(5))
                link.connectDeadline = extended
                arm(.connectBudget, at: extended, &out)
            }
        }
        if previousID != response.id { startNewSessionState(now, &out) }
        let stored = record?.sessionID == response.id ? record : nil
        intake.sessionOpened(cursor: stored?.cursor)
        if stored?.holdsLostTurnLock == true { turns.tracker.assumeLostTurnLock() }
        turns.lock.sessionOpened(now: now.elapsed)
        persistSession(now, &out)
        out.publish(.sessionOpened(response))
        // Why this session replaced the last one comes before its greeting.
        if let notice = link.lifecycle.opened() { out.publish(.notice(notice)) }
        if settings.deliversOnly {
            sessionReady(now, &out)
        } else if response.reusedActiveSession {
            link.phase = .settingUp(.history)
            out.append(.send(.history, access: session?.access, tag: .setup(epoch: link.epoch)))
        } else {
            if !response.initialMessage.isEmpty {
                out.publish(.message(.init(id: "greeting-" + response.id, role: .assistant, text: response.initialMessage)))
            }
            sessionReady(now, &out)
        }
    }

    func makeSession(_ response: SessionResponse) -> OpenSession {
        OpenSession(
            access: SessionAccess(id: response.id, token: CapabilityToken(response.chatCapabilityToken)),
            response: response,
            allowedNames: Set(response.availableFunctionNames).intersection(settings.functions.keys))
    }

    /// A different session than before: the old one's turn and its waiters end with it; a message being sent goes
    /// to the new one.
    private mutating func startNewSessionState(_ now: Moment, _ out: inout SessionOutput) {
        let sending = turns.outgoing?.requestID
        for (requestID, waiter) in turns.askWaiters where requestID != sending {
            var error = ResolveKitError(.sessionGone, "The session ended before the turn finished")
            error.turnSoFar = turns.turnSoFar(of: requestID)
            out.append(.reply(waiter, .turn(.failure(error))))
        }
        turns.askWaiters = turns.askWaiters.filter { $0.key == sending }
        turns.tracker.reset()
        turns.record = nil
        out.publish(.turnInProgress(turns.outgoing != nil))
    }

    /// The session is open: the stream opens, the token refresh is scheduled, waiting callers go on.
    private mutating func sessionReady(_ now: Moment, _ out: inout SessionOutput) {
        guard let session else { return }
        link.phase = .open
        let reused = session.response.reusedActiveSession
        out.log("Session \(session.id) \(reused ? "reused" : "created"); cursor \(intake.cursor.value ?? "none")")
        out.publish(.sessionStarted(sessionID: session.id, reused: reused))
        link.reuseOnSetup = true
        if settings.deliversOnly { return kickDelivery(now, &out) }
        openStream(cursor: intake.cursor.value, &out)
        scheduleTokenRefresh(now, &out)
        kickDelivery(now, &out)
        armWatchdog(now, &out)
        sessionOpenedForMessages(now, &out)
    }

    /// Ends the session's work with `ending`: its stream closes, its calls get their outcomes, and the lifecycle
    /// says what comes next.
    mutating func endSession(_ ending: SessionEnding, _ now: Moment, _ out: inout SessionOutput) {
        guard session != nil, link.phase == .open || isSettingUp else { return }
        closeSessionWork(now, &out)
        switch ending {
        case .sessionMissing: out.log("The session no longer exists; creating one", .warning)
        case .reopen(let reason): out.log(reason, .warning)
        default: break
        }
        switch link.lifecycle.sessionEnded(ending) {
        case .setUp(let reuse): setUp(reuse: reuse, &out)
        case .block(let error): endRun(blocked: error, now, &out)
        case .fail(let error): endRun(failed: error, now, &out)
        case .retry: setUp(reuse: link.reuseOnSetup, &out)
        }
    }

    private var isSettingUp: Bool {
        if case .settingUp = link.phase { return true }
        return false
    }

    /// What ends with a session's work: its stream, its timers, its calls (running ones cancelled, the others
    /// answered with an error); the cursor is written.
    private mutating func closeSessionWork(_ now: Moment, _ out: inout SessionOutput) {
        out.append(.closeStream)
        link.streamGeneration += 1
        for timer in [TimerID.tokenRefresh, .turnWatchdog, .batchWindow, .deliveryRetry] { disarm(timer, &out) }
        abandonCalls(now, &out)
        link.epoch += 1
        calls.delivery = CallDesk.Delivery()
        if intake.cursor.isDirty { persistSession(now, &out) }
    }

    /// `reloadWithNewSession()`: the current session's work ends and a new session starts.
    mutating func newSession(_ now: Moment, _ out: inout SessionOutput) {
        if link.isOpen {
            endSession(.newSessionRequested, now, &out)
        } else {
            link.lifecycle.newSessionRequested()
            link.reuseOnSetup = false
        }
    }

    /// `stop()`: everything ends now; waiting callers learn the runtime stopped.
    mutating func stop(_ now: Moment, _ out: inout SessionOutput) {
        guard !link.hasEnded else { return }
        if session != nil { closeSessionWork(now, &out) }
        endWaiters(ResolveKitError(.cancelled, "The runtime stopped"), &out)
        show(.idle, &out)
        finish(&out)
    }

    /// The run ends blocked: nothing on this side can go on without a change.
    mutating func endRun(blocked error: ResolveKitError, _ now: Moment, _ out: inout SessionOutput) {
        if session != nil, !link.hasEnded { closeSessionWork(now, &out) }
        out.publish(.error(error))
        show(.blocked(error), &out)
        endWaiters(error, &out)
        finish(&out)
    }

    /// The run ends failed.
    mutating func endRun(failed error: ResolveKitError, _ now: Moment, _ out: inout SessionOutput) {
        if session != nil, !link.hasEnded { closeSessionWork(now, &out) }
        out.publish(.error(error))
        show(.failed(error), &out)
        endWaiters(error, &out)
        finish(&out)
    }

    /// A run that only delivers (``SessionSettings/deliversOnly``) ends once the server answered every result.
    mutating func finishDelivering(_ out: inout SessionOutput) {
        out.log("Every result the last process left is settled (delivered, or no longer awaited)", .info)
        show(.idle, &out)
        finish(&out)
    }

    /// `start()`'s budget ran out: without an open stream the run fails as unreachable; a run that only delivers
    /// fails with what it could not deliver left in the journal for the key's next run.
    mutating func connectBudgetElapsed(_ now: Moment, _ out: inout SessionOutput) {
        if settings.deliversOnly, link.isOpen {
            let left = calls.journal.answeredKeys.count
            let message = "\(left) result(s) the last process left were not delivered within "
                + "\(settings.connectTimeout ?? .zero); they stay in the state folder for the key's next session"
            return endRun(failed: ResolveKitError(.backend, message), now, &out)
        }
        guard !link.hasOpenedStream else { return }
        let budget = settings.connectTimeout ?? .zero
        let cause = link.lastConnectFailure.map { " (last cause: \($0))" }
            ?? " (the backend answered, but its event stream did not open)"
        endRun(failed: ResolveKitError(
            .unreachable, "No connection to \(settings.baseURL) within \(budget)\(cause)",
            underlying: link.lastConnectFailure), now, &out)
    }
}
