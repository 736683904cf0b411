import Foundation
import ResolveKitHTTP

/// The event stream (§5, §8.2) and the capability token that opens it (§2.2).
extension SessionMachine {
    /// Opens a stream from `cursor`, replacing the one open.
    mutating func openStream(cursor: String?, _ out: inout SessionOutput) {
        guard let session else { return }
        link.streamGeneration += 1
        out.append(.openStream(generation: link.streamGeneration, path: session.response.eventsURL, cursor: cursor))
    }

    mutating func streamElement(_ element: EventStream.Element, _ now: Moment, _ out: inout SessionOutput) {
        switch element {
        case .state(.connecting):
            if !link.hasOpenedStream { show(.connecting, &out) }
        case .state(.open):
            if link.hasOpenedStream, link.shownState != .active { show(.reconnected, &out) }
            link.hasOpenedStream = true
            disarm(.connectBudget, &out)
            link.refreshedSinceStreamOpened = false
            show(.active, &out)
            kickDelivery(now, &out)
        case .state(.reconnecting(let attempt, let delay)):
            // attempt 0 is the routine reconnect after the server's 300 s rotation: the turn goes on (§10.3).
            let cause = link.streamReconnectCause.map { ResolveKitError(connectFailure: $0) }
            if attempt > 0 { show(.reconnecting(attempt: attempt, delay: delay, cause: cause), &out) }
        case .state(.closed), .state(.failed), .comment:
            break
        case .discarded(let error):
            out.log("Dropped an oversized event: \(error)", .warning)
        case .event(let event):
            streamEvent(event, now, &out)
        }
    }

    /// A stream that ended for good: a 403 `chat_unavailable` refreshes the token and resumes (once until the
    /// stream opens again: a second 403 with a fresh token means chat is off); 404, 410 and 401 end the session's
    /// work with what comes next (§8.2).
    mutating func streamEnded(_ termination: EventStream.Termination, _ now: Moment, _ out: inout SessionOutput) {
        guard case .failed(let error) = termination else { return }
        link.lastConnectFailure = error
        let detail = ServerErrorBody(bytes: error.body)
        let action = BackendFailurePolicy.action(
            .events, status: error.status, isChatUnavailable: detail.isChatUnavailable,
            tokenRefreshed: link.refreshedSinceStreamOpened)
        switch action {
        case .refreshToken:
            link.refreshedSinceStreamOpened = true
            refreshToken(for: .stream, &out)
        case .block(let code):
            endSession(.blocked(ResolveKitError(code, Self.streamBlockMessage(code), underlying: error)), now, &out)
        case .recreateSession:
            endSession(.sessionMissing, now, &out)
        case .replaceSession:
            let reason = "The conversation ended on the server (it expired or was handed off); a new one started."
            endSession(.sessionGone(reason), now, &out)
        case .retry where error.code == .attemptsExhausted:
            let failure = ResolveKitError(.unreachable, "The event stream failed: \(error)", underlying: error)
            endSession(.failed(failure), now, &out)
        case .retry, .waitForTurnLock, .settle, .fail:
            let failure = ResolveKitError(.backend, "The event stream failed: \(error)", underlying: error)
            endSession(.failed(failure), now, &out)
        }
    }

    /// The words for an event stream that the backend refused for good.
    static func streamBlockMessage(_ code: ResolveKitError.Code) -> String {
        switch code {
        case .apiKeyRejected: "The backend rejected the API key (the event stream got HTTP 401)"
        default: "Chat is unavailable for this app (403 chat_unavailable)"
        }
    }

    /// Reopens the stream without its cursor: a restarted in-memory backend renumbers events and hides them behind
    /// an old cursor (§10.10). The call journal and ``HandledEvents`` keep the replay from repeating anything.
    mutating func resetStream(_ now: Moment, _ out: inout SessionOutput) {
        out.log("Reconnecting without a cursor", .warning)
        intake.resetCursor()
        persistSession(now, &out)
        openStream(cursor: nil, &out)
    }

    // MARK: The capability token

    /// Arms the refresh about a minute before the token expires; the token does not slide with activity.
    mutating func scheduleTokenRefresh(_ now: Moment, _ out: inout SessionOutput) {
        guard let expiry = session?.access.token.expiresAt else { return }
        let wait = max(0, expiry.timeIntervalSince(now.date) - 60)
        arm(.tokenRefresh, at: now.elapsed + .milliseconds(Int(wait * 1000)), &out)
    }

    /// `POST /v1/sessions` with reuse and the same device id: a fresh token for the same session.
    mutating func refreshToken(for purpose: RefreshPurpose, _ out: inout SessionOutput) {
        out.append(.send(.createSession(reuse: true), access: nil, tag: .refresh(purpose, epoch: link.epoch)))
    }

    /// A refresh answered. The same session: its token is taken and what waited goes on. Another session: the old
    /// one ended, and the session's work restarts on the new one.
    mutating func refreshAnswered(
        _ purpose: RefreshPurpose, _ result: Result<BackendAnswer, BackendFailure>, _ now: Moment,
        _ out: inout SessionOutput
    ) {
        guard let current = session else { return }
        switch result {
        case .success(.session(let response)) where response.id == current.id:
            session = makeSession(response)
            out.log("Refreshed the capability token (\(session?.access.token.description ?? ""))")
            scheduleTokenRefresh(now, &out)
            switch purpose {
            case .stream: openStream(cursor: intake.cursor.value, &out)
            case .delivery:
                calls.delivery.inFlight = nil
                kickDelivery(now, &out)
            case .message: resendMessage(now, &out)
            case .scheduled: break
            }
        case .success(.session):
            out.log("The session ended while refreshing its token; continuing with a new session", .warning)
            if case .message = purpose {
                failMessage(ResolveKitError(.sessionGone, "A new session started while the message was sent; send it again"), now, &out)
            }
            endSession(.sessionGone("The conversation ended on the server; a new one started."), now, &out)
        case .success, .failure:
            out.log("Refreshing the capability token failed: \(Self.describe(result))", .warning)
            switch purpose {
            case .scheduled:
                arm(.tokenRefresh, at: now.elapsed + .seconds(30), &out)
            case .delivery:
                deliveryFailed(nil, now, &out)
            case .message:
                let failure = result.failureValue?.backendError
                failMessage(ResolveKitError(
                    .chatUnavailable, "The capability token could not be refreshed", isRetryable: true,
                    underlying: failure), now, &out)
            case .stream:
                endSession(.reopen("The capability token could not be refreshed; opening the session again"), now, &out)
            }
        }
    }

    static func describe(_ result: Result<BackendAnswer, BackendFailure>) -> String {
        switch result {
        case .success(let answer): "unexpected answer \(answer)"
        case .failure(.backend(let error, _)): error.description
        case .failure(let failure): "\(failure)"
        }
    }
}

extension Result {
    /// The failure, if this is one.
    var failureValue: Failure? {
        if case .failure(let failure) = self { return failure }
        return nil
    }
}
