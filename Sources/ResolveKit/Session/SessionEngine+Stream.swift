import ResolveKitHTTP

extension SessionEngine {
    /// Runs a session's concurrent work: the event stream, the tool jobs, result delivery, token refresh and the
    /// turn watchdog. Returns when the stream ends for good, a new session is requested, or the task is
    /// cancelled; every child is cancelled before it returns.
    func runSession() async -> SessionEnding {
        let (jobStream, jobContinuation) = AsyncStream<@Sendable () async -> Void>.makeStream()
        let (kickStream, kickContinuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let (controlStream, controlContinuation) = AsyncStream<SessionEnding>.makeStream()
        channels.jobs = jobContinuation
        channels.deliveryKick = kickContinuation
        channels.control = controlContinuation
        kickContinuation.yield()
        for waiter in waiting.sessions { waiter.fulfill(true) }
        waiting.sessions = []
        let ending = await withTaskGroup(of: SessionEnding?.self) { group in
            group.addTask { await self.runStream() }
            group.addTask {
                for await ending in controlStream { return ending }
                return nil
            }
            group.addTask {
                await withDiscardingTaskGroup { jobGroup in
                    for await job in jobStream { jobGroup.addTask { await job() } }
                }
                return nil
            }
            group.addTask {
                await self.runDelivery(kickStream)
                return nil
            }
            group.addTask {
                await self.runTokenRefresh()
                return nil
            }
            group.addTask {
                await self.runTurnWatchdog()
                return nil
            }
            var ending = SessionEnding.cancelled
            for await result in group {
                if let result {
                    ending = result
                    break
                }
            }
            jobContinuation.finish()
            kickContinuation.finish()
            controlContinuation.finish()
            group.cancelAll()
            return ending
        }
        channels.jobs = nil
        channels.deliveryKick = nil
        channels.control = nil
        abandonUnstartedCalls()
        if progress.cursor.isDirty { persistSession() }
        return Task.isCancelled ? .cancelled : ending
    }

    /// The event stream with cursor resume. A 403 `chat_unavailable` refreshes the token and resumes (once until
    /// the stream opens again: a second 403 with a fresh token means chat is off); when the refresh finds the
    /// session replaced or cannot reach the backend, setup runs again, which tells an expired token from chat
    /// switched off. 404, 410 and 401 end the session's work with what the runtime must do next (§8.2).
    func runStream() async -> SessionEnding {
        connection.refreshedSinceStreamOpened = false
        while !Task.isCancelled {
            guard let backend, let response = sessionResponse else {
                return .failed(ResolveKitError(.notStarted, "No session to stream"))
            }
            var streamConfiguration = EventStream.Configuration(idleTimeout: configuration.streamIdleTimeout)
            if let budget = configuration.reconnectAttemptBudget { streamConfiguration.backoff.maxAttempts = budget }
            let stream = EventStream(
                url: backend.eventsURL(for: response.eventsURL), cursor: progress.cursor.value, configuration: streamConfiguration,
                transport: .http(http), clock: clock,
                headers: { [weak self] in await self?.streamHeaders() ?? [] })
            let (resets, resetContinuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
            channels.streamReset = resetContinuation
            let outcome = await withTaskGroup(of: EventStream.Termination?.self) { group in
                group.addTask {
                    await stream.run { @Sendable (element: EventStream.Element) in await self.handle(element) }
                }
                group.addTask {
                    for await _ in resets { return nil }
                    return .cancelled
                }
                let first = await group.next() ?? .cancelled
                group.cancelAll()
                return first
            }
            resetContinuation.finish()
            channels.streamReset = nil
            guard let termination = outcome else {
                output.log("Reconnecting without a cursor", level: .warning)
                progress.cursor.clear()
                persistSession()
                guardReplay()
                continue
            }
            guard case .failed(let error) = termination else { return .cancelled }
            connection.lastConnectFailure = error
            let detail = ServerErrorBody(bytes: error.body)
            let action = BackendFailurePolicy.action(
                .events, status: error.status, isChatUnavailable: detail.isChatUnavailable,
                tokenRefreshed: connection.refreshedSinceStreamOpened)
            switch action {
            case .refreshToken:
                connection.refreshedSinceStreamOpened = true
                switch await refreshCapabilityToken() {
                case .refreshed: continue
                case .sessionReplaced: return .sessionGone("The conversation ended on the server; a new one started.")
                case .failed: return .reopen("The capability token could not be refreshed; opening the session again")
                }
            case .block(let code):
                return .blocked(ResolveKitError(code, Self.streamBlockMessage(code, error), underlying: error))
            case .recreateSession: return .sessionMissing
            case .replaceSession:
                return .sessionGone("The conversation ended on the server (it expired or was handed off); a new one started.")
            case .retry where error.code == .attemptsExhausted:
                return .failed(ResolveKitError(.unreachable, "The event stream failed: \(error)", underlying: error))
            case .retry, .waitForTurnLock, .settle, .fail:
                return .failed(ResolveKitError(.backend, "The event stream failed: \(error)", underlying: error))
            }
        }
        return .cancelled
    }

    /// Before reopening without a cursor: the replay repeats the session's whole history, and the call journal
    /// and ``HandledEvents`` are bounded, so a long session's oldest calls may be forgotten and would run again.
    /// Events from before the newest one already handled are skipped, except calls still within their timeout
    /// (which the journal holds); events renumbered by a restarted backend are newer and pass. Server time only.
    static func streamBlockMessage(_ code: ResolveKitError.Code, _ error: EventStreamError) -> String {
        switch code {
        case .apiKeyRejected: "The backend rejected the API key (the event stream got HTTP 401)"
        default: "Chat is unavailable for this app (403 chat_unavailable)"
        }
    }

    func guardReplay() {
        guard let newest = progress.newestHandledEventTime, progress.replayGuard.map({ $0.cutoff < newest }) ?? true else { return }
        progress.replayGuard = ReplayGuard(cutoff: newest, turnInProgress: true)
    }

    func streamHeaders() -> [(name: String, value: String)] {
        guard let backend else { return [] }
        return backend.headers(session: session, accept: "text/event-stream").map { ($0.name, $0.value) }
    }

    func handle(_ element: EventStream.Element) async {
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
            channels.deliveryKick?.yield()
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
            await handle(event)
        }
    }
}
