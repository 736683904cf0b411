import Testing

@testable import ResolveKit

/// One row per line of the status → action table (WireProtocol §8.2).
struct BackendFailurePolicyTests {
    typealias Row = (BackendFailurePolicy.Endpoint, Int?, Bool, Bool, BackendFailurePolicy.Action)

    static let rows: [Row] = [
        (.compatibility, nil, false, false, .retry),
        (.createSession, 503, false, false, .retry),
        (.events, 429, false, false, .retry),
        (.sendMessage, 408, false, false, .retry),
        (.events, 400, false, false, .retry),
        (.registration, 401, false, false, .block(.apiKeyRejected)),
        (.events, 401, false, false, .block(.apiKeyRejected)),
        (.events, 403, true, false, .refreshToken),
        (.events, 403, true, true, .block(.chatUnavailable)),
        (.sendMessage, 403, true, false, .refreshToken),
        (.toolResults, 403, true, false, .refreshToken),
        (.createSession, 403, true, false, .block(.chatUnavailable)),
        (.events, 403, false, false, .block(.chatUnavailable)),
        (.events, 404, false, false, .recreateSession),
        (.sendMessage, 404, false, false, .recreateSession),
        (.sessionRead, 404, false, false, .recreateSession),
        (.toolResults, 404, false, false, .settle),
        (.registration, 404, false, false, .fail),
        (.sendMessage, 409, false, false, .waitForTurnLock),
        (.toolResults, 409, false, false, .retry),
        (.createSession, 409, false, false, .fail),
        (.events, 410, false, false, .replaceSession),
        (.sendMessage, 410, false, false, .replaceSession),
        (.toolResults, 410, false, false, .settle),
        (.toolResults, 422, false, false, .settle),
        (.registration, 422, false, false, .fail),
        (.sendMessage, 418, false, false, .fail),
        (.toolResults, 418, false, false, .retry),
    ]

    @Test(arguments: rows)
    func eachFailureMapsToOneAction(row: Row) {
        let (endpoint, status, chatUnavailable, refreshed, expected) = row
        let action = BackendFailurePolicy.action(
            endpoint, status: status, isChatUnavailable: chatUnavailable, tokenRefreshed: refreshed)
        #expect(action == expected, "\(endpoint) \(status.map(String.init) ?? "transport")")
    }
}
