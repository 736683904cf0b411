/// The one table from a failed backend request to what the runtime does next (WireProtocol §8.2), used by setup,
/// the event stream, sending messages and delivering results alike. Pure: it only decides.
enum BackendFailurePolicy {
    /// The requests whose failures the runtime handles.
    enum Endpoint: Sendable, Equatable {
        /// `GET /v1/sdk/compat`.
        case compatibility
        /// `PUT /v1/functions/bulk`.
        case registration
        /// `POST /v1/sessions`: create, reuse, or refresh the capability token.
        case createSession
        /// `GET /v1/sessions/{id}/events`.
        case events
        /// `POST /v1/sessions/{id}/messages`.
        case sendMessage
        /// `POST /v1/sessions/{id}/tool-results`.
        case toolResults
        /// Other session-scoped requests: `GET /messages`, `PATCH /context`, `GET /localization`.
        case sessionRead
    }

    /// What to do.
    enum Action: Sendable, Equatable {
        /// A transient failure: back off and send the same request again.
        case retry
        /// The capability token expired (403 `chat_unavailable`): refresh it once, then send again.
        case refreshToken
        /// Another turn holds the session's lock (409): wait, then send again with the same request id.
        case waitForTurnLock
        /// The session ended on the server (410): open a new session and tell the user.
        case replaceSession
        /// The session does not exist for this app (404): create one again, without the old cursor.
        case recreateSession
        /// The server no longer waits for this result (404, 410, 422): drop it from the journal.
        case settle
        /// Nothing on this side can fix it without a change: stop with this error code.
        case block(ResolveKitError.Code)
        /// The request is wrong (422, other 4xx): give up on it and report.
        case fail
    }

    /// The action for a failure.
    /// - Parameters:
    ///   - endpoint: The request that failed.
    ///   - status: The HTTP status, or `nil` for a transport failure (connect, DNS, TLS, deadline).
    ///   - isChatUnavailable: Whether the body is the 403 `chat_unavailable` detail.
    ///   - tokenRefreshed: Whether the token was already refreshed for this failure, so a second 403 means chat
    ///     is switched off.
    static func action(
        _ endpoint: Endpoint, status: Int?, isChatUnavailable: Bool = false, tokenRefreshed: Bool = false
    ) -> Action {
        guard let status else { return .retry }
        switch status {
        case 500...599, 429, 408, 400:
            // 400 is an app whose agent is not configured yet: an operator fixes it while we back off (§8.2).
            return .retry
        case 401:
            return .block(.apiKeyRejected)
        case 403:
            guard isChatUnavailable else { return .block(.chatUnavailable) }
            let canRefresh = endpoint != .createSession && endpoint != .compatibility && endpoint != .registration
            return canRefresh && !tokenRefreshed ? .refreshToken : .block(.chatUnavailable)
        case 404:
            switch endpoint {
            case .toolResults: return .settle
            case .events, .sendMessage, .sessionRead: return .recreateSession
            case .compatibility, .registration, .createSession: return .fail
            }
        case 409:
            switch endpoint {
            case .sendMessage: return .waitForTurnLock
            case .toolResults: return .retry
            default: return .fail
            }
        case 410:
            switch endpoint {
            case .toolResults: return .settle
            case .events, .sendMessage, .sessionRead: return .replaceSession
            case .compatibility, .registration, .createSession: return .fail
            }
        case 422:
            return endpoint == .toolResults ? .settle : .fail
        default:
            return endpoint == .toolResults ? .retry : .fail
        }
    }

    /// The action for a ``BackendError``.
    static func action(_ endpoint: Endpoint, _ error: BackendError, tokenRefreshed: Bool = false) -> Action {
        // Found before anything was sent: only a change on this side (the functions, or allowing the replace) helps.
        if error.code == .functionSetConflict { return .block(.functionSetConflict) }
        return action(
            endpoint, status: error.status, isChatUnavailable: error.isChatUnavailable, tokenRefreshed: tokenRefreshed)
    }

    /// Whether a failed `GET /v1/sdk/compat` means an older backend without the endpoint, which setup goes on
    /// without (§4.1): a 404 in the backend's JSON error shape (`{"detail": …}`). A 404 of anything else (a web
    /// server's page) is no backend at all, and ``action(_:status:isChatUnavailable:tokenRefreshed:)`` fails it.
    static func isOlderBackendWithoutCompatibility(_ error: BackendError) -> Bool {
        guard error.status == 404 else { return false }
        switch error.serverError {
        case .detail?, .coded?, .validation?: return true
        case .other?, nil: return false
        }
    }

    /// Whether a failed request's cause is one no retry can fix although the policy says to retry it: the request
    /// got no HTTP answer because the host name does not resolve, the server answered TLS in plain HTTP, or the URL
    /// is malformed (``BackendError/isPermanentTransportFailure``). Setup gives up on it at once while the runtime
    /// has never connected.
    static func isUnfixableByRetry(_ cause: any Error) -> Bool {
        (cause as? BackendError)?.isPermanentTransportFailure == true
    }
}
