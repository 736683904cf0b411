import ResolveKitHTTP

extension SessionEngine {
    /// Runs a session's concurrent work: the event stream, the jobs (tool calls, result delivery and the turn
    /// watchdog, each started when there is work for it) and token refresh. Returns when the stream ends for good,
    /// a new session is requested, or the task is cancelled; every child is cancelled and has ended before it
    /// returns. This task itself starts the jobs and waits for the ending (the stream's comes as a work item too): an
    /// idle session runs only the stream's and token refresh's tasks here, and each long-lived task costs memory for
    /// the session's whole life.
    func runSession() async -> SessionEnding {
        let (work, workContinuation) = AsyncStream<SessionWork>.makeStream()
        sessionStarting(work: workContinuation)
        let ending = await withDiscardingTaskGroup(returning: SessionEnding.self) { group in
            group.addTask { workContinuation.yield(.end(await self.runStream())) }
            group.addTask { await self.runTokenRefresh() }
            var ending = SessionEnding.cancelled
            waiting: for await item in work {
                switch item {
                case .run(let job):
                    group.addTask { await job() }
                case .end(let reason):
                    ending = reason
                    break waiting
                }
            }
            workContinuation.finish()
            group.cancelAll()
            return ending
        }
        sessionStopped()
        return Task.isCancelled ? .cancelled : ending
    }

    /// Ends the session's work with `ending` (nothing happens between sessions).
    func endSessionWork(_ ending: SessionEnding) {
        channels.work?.yield(.end(ending))
    }

    /// Out of line, like every step of the session's long-lived functions: see ``runSessions()``.
    @inline(never) private func sessionStarting(work: AsyncStream<SessionWork>.Continuation) {
        channels.work = work
        kickDelivery()
        startTurnWatchdog()
        for waiter in waiting.sessions { waiter.fulfill(true) }
        waiting.sessions = []
    }

    /// Leaves the channels empty for the next session (its jobs' flags down: their jobs ended with this session).
    @inline(never) private func sessionStopped() {
        channels.work = nil
        channels.isDelivering = false
        channels.isWatchingTurn = false
        abandonUnstartedCalls()
        if progress.cursor.isDirty { persistSession() }
    }

    /// The event stream with cursor resume. A 403 `chat_unavailable` refreshes the token and resumes (once until
    /// the stream opens again: a second 403 with a fresh token means chat is off); when the refresh finds the
    /// session replaced or cannot reach the backend, setup runs again, which tells an expired token from chat
    /// switched off. 404, 410 and 401 end the session's work with what the runtime must do next (§8.2).
    func runStream() async -> SessionEnding {
        connection.refreshedSinceStreamOpened = false
        while !Task.isCancelled {
            guard let stream = makeEventStream() else {
                return .failed(ResolveKitError(.notStarted, "No session to stream"))
            }
            switch streamEnded(await readUntilReset(stream)) {
            case .resume:
                continue
            case .end(let ending):
                return ending
            case .refreshToken:
                switch await refreshCapabilityToken() {
                case .refreshed: continue
                case .sessionReplaced: return .sessionGone("The conversation ended on the server; a new one started.")
                case .failed: return .reopen("The capability token could not be refreshed; opening the session again")
                }
            }
        }
        return .cancelled
    }

    /// What ``runStream()`` does after a stream ended.
    enum StreamStep {
        case resume
        case refreshToken
        case end(SessionEnding)
    }

    /// The stream from the current cursor; `nil` without a session. Out of line, like the other steps of
    /// ``runStream()``: the loop's frame lives as long as the stream, so it holds only what crosses its awaits.
    @inline(never) private func makeEventStream() -> EventStream? {
        guard let backend, let response = sessionResponse else { return nil }
        var streamConfiguration = EventStream.Configuration(idleTimeout: configuration.streamIdleTimeout)
        if let budget = configuration.reconnectAttemptBudget { streamConfiguration.backoff.maxAttempts = budget }
        return EventStream(
            url: backend.eventsURL(for: response.eventsURL), cursor: progress.cursor.value,
            configuration: streamConfiguration, transport: backend.eventStreamTransport(), clock: clock,
            headers: { [weak self] in await self?.streamHeaders() ?? [] })
    }

    /// Runs `stream` until it ends, or until the turn watchdog asks for a reconnect without the cursor (`nil`).
    @inline(never) private func readUntilReset(_ stream: EventStream) async -> EventStream.Termination? {
        let (resets, resetContinuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        channels.streamReset = resetContinuation
        // This task waits for a reset itself (no task of its own per session); a stream that ends finishes `resets`.
        let outcome = await withTaskGroup(of: EventStream.Termination.self) { group in
            group.addTask {
                let termination = await self.read(stream)
                resetContinuation.finish()
                return termination
            }
            var wasReset = false
            for await _ in resets {
                wasReset = true
                break
            }
            group.cancelAll()
            let termination = await group.next() ?? .cancelled
            return wasReset ? nil : termination
        }
        resetContinuation.finish()
        channels.streamReset = nil
        return outcome
    }

    /// Reads `stream` on this actor: each chunk's task resumes here and handles its events, with no hop of its own
    /// in between. Under load every hop waits behind every other session's work, and a call starts that much later.
    @inline(never) private func read(_ stream: EventStream) async -> EventStream.Termination {
        await stream.run { element in handle(element) }
    }

    /// Decides what follows a stream's end. A 403 `chat_unavailable` refreshes the token and resumes (once until
    /// the stream opens again: a second 403 with a fresh token means chat is off); 404, 410 and 401 end the
    /// session's work with what the runtime must do next (§8.2).
    @inline(never) private func streamEnded(_ outcome: EventStream.Termination?) -> StreamStep {
        guard let termination = outcome else {
            output.log("Reconnecting without a cursor", level: .warning)
            progress.cursor.clear()
            persistSession()
            guardReplay()
            return .resume
        }
        guard case .failed(let error) = termination else { return .end(.cancelled) }
        connection.lastConnectFailure = error
        let detail = ServerErrorBody(bytes: error.body)
        let action = BackendFailurePolicy.action(
            .events, status: error.status, isChatUnavailable: detail.isChatUnavailable,
            tokenRefreshed: connection.refreshedSinceStreamOpened)
        switch action {
        case .refreshToken:
            connection.refreshedSinceStreamOpened = true
            return .refreshToken
        case .block(let code):
            return .end(.blocked(ResolveKitError(code, Self.streamBlockMessage(code, error), underlying: error)))
        case .recreateSession: return .end(.sessionMissing)
        case .replaceSession:
            return .end(
                .sessionGone("The conversation ended on the server (it expired or was handed off); a new one started."))
        case .retry where error.code == .attemptsExhausted:
            return .end(.failed(ResolveKitError(.unreachable, "The event stream failed: \(error)", underlying: error)))
        case .retry, .waitForTurnLock, .settle, .fail:
            return .end(.failed(ResolveKitError(.backend, "The event stream failed: \(error)", underlying: error)))
        }
    }

    /// The words for an event stream that the backend refused for good.
    static func streamBlockMessage(_ code: ResolveKitError.Code, _ error: EventStreamError) -> String {
        switch code {
        case .apiKeyRejected: "The backend rejected the API key (the event stream got HTTP 401)"
        default: "Chat is unavailable for this app (403 chat_unavailable)"
        }
    }

    /// Before reopening without a cursor: the replay repeats the session's whole history, and the call journal
    /// and ``HandledEvents`` are bounded, so a long session's oldest calls may be forgotten and would run again.
    /// Events from before the newest one already handled are skipped, except calls still within their timeout
    /// (which the journal holds); events renumbered by a restarted backend are newer and pass. Server time only.
    func guardReplay() {
        guard let newest = progress.newestHandledEventTime, progress.replayGuard.map({ $0.cutoff < newest }) ?? true
        else { return }
        progress.replayGuard = ReplayGuard(cutoff: newest, turnInProgress: true)
    }

    func streamHeaders() -> [(name: String, value: String)] {
        guard let backend else { return [] }
        return backend.headers(session: session, accept: "text/event-stream").map { ($0.name, $0.value) }
    }

    func handle(_ element: EventStream.Element) {
        switch element {
        case .state(.connecting):
            if !connection.hasOpenedStream { output.setState(.connecting) }
        case .state(.open):
            if connection.hasOpenedStream, output.read().connectionState != .active {
                output.setState(.reconnected)
            }
            connection.hasOpenedStream = true
            firstOpen.fulfill(true)
            connection.refreshedSinceStreamOpened = false
            output.setState(.active)
            kickDelivery()
        case .state(.reconnecting(let attempt, let delay)):
            // attempt 0 is the routine reconnect after the server's 300 s rotation: the turn goes on (§10.3).
            if attempt > 0 { output.setState(.reconnecting(attempt: attempt, delay: delay)) }
        case .state(.closed), .state(.failed):
            break
        case .comment:
            break
        case .discarded(let error):
            output.log("Dropped an oversized event: \(error)", level: .warning)
        case .event(let event):
            handle(event)
        }
    }
}
