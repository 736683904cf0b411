import Foundation

extension SessionEngine {
    /// Posts every unacknowledged result, oldest first, retrying a failure after its backoff, then ends; started by
    /// ``kickDelivery()`` after a new result and when the stream opens. A result leaves the journal only when the
    /// server answered 2xx, or 404/410 (it no longer waits for it). Results of earlier sessions cannot be posted
    /// with this session's token and are dropped with a log line.
    func runDelivery() async {
        defer { channels.isDelivering = false }
        var failures = 0
        while !Task.isCancelled, let submission = nextUndelivered() {
            if await deliver(submission) {
                failures = 0
                continue
            }
            failures += 1
            let delay = deliveryFailed(submission, failures: failures)
            do { try await clock.sleep(untilElapsed: clock.elapsed + delay) } catch { return }
        }
    }

    /// Starts the result deliverer unless it is queued or running; it posts what the outbox holds, then ends.
    func kickDelivery() {
        guard !channels.isDelivering, let work = channels.work else { return }
        channels.isDelivering = true
        work.yield(.run { [self] in await runDelivery() })
    }

    /// Logs a failed post and returns how long to wait before the next; out of line to keep ``runDelivery()``'s
    /// frame small (see ``runSessions()``).
    @inline(never) private func deliveryFailed(_ submission: ToolResultSubmission, failures: Int) -> Duration {
        let delay = Backoff.delay(forAttempt: failures)
        output.log("Posting the result of \(submission.callID) failed; retrying in \(delay)", level: .warning)
        return delay
    }

    @inline(never) private func nextUndelivered() -> ToolResultSubmission? {
        guard let session else { return nil }
        let (next, dropped) = outbox.next(in: session.id)
        for key in dropped { output.log("Dropped the result of \(key.callID): its session \(key.sessionID) ended") }
        if !dropped.isEmpty { persistJournal() }
        return next
    }

    /// Posts one result. Returns whether it is settled; `false` means try again later.
    @inline(never) private func deliver(_ submission: ToolResultSubmission) async -> Bool {
        guard let backend, let session else { return false }
        let key = CallJournal.Key(sessionID: session.id, callID: submission.callID)
        let error: BackendError
        do {
            let acknowledgement = try await backend.submitToolResult(session, submission)
            settle(key, note: acknowledgement.deduplicated ? "already received" : "delivered")
            return true
        } catch let caught {
            error = caught
        }
        switch BackendFailurePolicy.action(.toolResults, error) {
        case .settle:
            settle(key, note: "no longer awaited by the server (\(error))")
            return true
        case .refreshToken:
            _ = await refreshToken()
            return false
        case .block, .retry, .waitForTurnLock, .replaceSession, .recreateSession, .fail:
            // The result stays in the journal: the stream's own failure handling ends the session when it must.
            return false
        }
    }

    private func settle(_ key: CallJournal.Key, note: String) {
        guard outbox.settle(key) else { return }
        persistJournal()
        output.log("Result of \(key.callID) \(note)")
        output.emit(.toolResultDelivered(callID: key.callID))
    }

    /// Refreshes the capability token about a minute before it expires (§2.2) by re-creating the session with
    /// reuse; the token does not slide with activity.
    func runTokenRefresh() async {
        while !Task.isCancelled {
            guard let expiry = session?.token.expiresAt else { return }
            let wait = max(0, expiry.timeIntervalSinceNow - 60)
            do { try await clock.sleep(untilElapsed: clock.elapsed + .milliseconds(Int(wait * 1000))) } catch { return }
            if await !refreshToken() {
                do { try await clock.sleep(untilElapsed: clock.elapsed + .seconds(30)) } catch { return }
            }
        }
    }

    /// How a token refresh ended.
    enum TokenRefresh: Equatable {
        case refreshed
        /// The backend answered with another session: the old one ended (``channels.control`` was told).
        case sessionReplaced
        /// The backend could not be asked or refused.
        case failed
    }

    /// Refreshes the capability token; `true` when the same session has a fresh token.
    func refreshToken() async -> Bool { await refreshCapabilityToken() == .refreshed }

    /// `POST /v1/sessions` with reuse and the same device id: a fresh token for the same session. If the backend
    /// answers with another session, the old one ended: the session's work restarts on the new one.
    func refreshCapabilityToken() async -> TokenRefresh {
        guard let backend, let current = session else { return .failed }
        let request = sessionRequest(reuse: true)
        do {
            let response = try await backend.createSession(request)
            // The actor is reentrant: while the request was out, this session's work may have ended and setup may
            // have opened another one (a refresh from `sendMessage` is not a child of the session's work). The
            // answer is then stale: adopting it would put the old session back under the new session's stream
            // and deliveries, and telling ``channels.control`` would end the new session.
            guard session?.id == current.id else {
                output.log("Ignored a token refresh for session \(current.id): another session started meanwhile")
                return .failed
            }
            guard response.id == current.id else {
                output.log("The session ended while refreshing its token; continuing with a new session", level: .warning)
                endSessionWork(.sessionGone("The conversation ended on the server; a new one started."))
                return .sessionReplaced
            }
            adopt(response)
            output.log("Refreshed the capability token (\(CapabilityToken(response.chatCapabilityToken)))")
            return .refreshed
        } catch {
            output.log("Refreshing the capability token failed: \(error)", level: .warning)
            return .failed
        }
    }
}
