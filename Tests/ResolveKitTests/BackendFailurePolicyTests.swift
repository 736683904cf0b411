import ResolveKitHTTP
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

/// What the table cannot see from a status alone: an older backend's 404 on the compatibility endpoint, and the
/// transport failures no retry can fix.
struct BackendFailureCauseTests {
    static func compat404(_ body: String) -> BackendError {
        BackendError(
            code: .httpStatus, endpoint: "GET /v1/sdk/compat", message: "HTTP 404", status: 404,
            serverError: ServerErrorBody(bytes: Array(body.utf8)))
    }

    @Test func aCompatibility404InTheBackendsShapeIsAnOlderBackendAndAnyOtherIsNoBackend() {
        #expect(BackendFailurePolicy.isOlderBackendWithoutCompatibility(Self.compat404(#"{"detail":"Not Found"}"#)))
        #expect(!BackendFailurePolicy.isOlderBackendWithoutCompatibility(Self.compat404("<html>Not Found</html>")))
        #expect(!BackendFailurePolicy.isOlderBackendWithoutCompatibility(Self.compat404("")))
        #expect(BackendFailurePolicy.action(.compatibility, Self.compat404("<html>Not Found</html>")) == .fail)
    }

    @Test func onlyATransportFailureNoRetryCanFixIsUnfixable() {
        func transport(_ error: HTTPError) -> BackendError {
            BackendError(code: .transport, endpoint: "GET /v1/sdk/compat", message: "\(error)", underlying: error)
        }
        let unknownHost = HTTPError(code: .connectFailed, message: "no host", curlCode: 6)
        let refused = HTTPError(code: .connectFailed, message: "refused", curlCode: 7)
        let plainHTTP = HTTPError(
            code: .tlsFailed, message: "tls", curlCode: 35,
            curlMessage: "OpenSSL/3.0.19: error:0A00010B:SSL routines::wrong version number")
        let badCertificate = HTTPError(code: .tlsFailed, message: "tls", curlCode: 60, curlMessage: "self signed")
        #expect(BackendFailurePolicy.isUnfixableByRetry(transport(unknownHost)))
        #expect(BackendFailurePolicy.isUnfixableByRetry(transport(plainHTTP)))
        #expect(!BackendFailurePolicy.isUnfixableByRetry(transport(refused)))
        #expect(!BackendFailurePolicy.isUnfixableByRetry(transport(badCertificate)))
        #expect(!BackendFailurePolicy.isUnfixableByRetry(Self.compat404("")))
        #expect(!transport(unknownHost).isTransient)
        #expect(transport(refused).isTransient)
    }
}
