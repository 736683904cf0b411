import ResolveKit
import ResolveKitHTTP
import Testing

/// A transport failure, however it was wrapped, reaches the caller with the `HTTPError` as its underlying cause.
struct NetworkCauseTests {
    static let cause = HTTPError(code: .pinMismatch, message: "no pin matches", curlCode: 90)

    @Test func aBackendTransportErrorsCauseBecomesTheUnderlyingError() {
        let backend = BackendError(
            code: .transport, endpoint: "GET /v1/sdk/compat", message: "\(Self.cause)", underlying: Self.cause)
        let error = ResolveKitError(.unreachable, "No connection", underlying: backend)
        #expect((error.underlying as? HTTPError)?.code == .pinMismatch)
    }

    @Test func anExhaustedEventStreamsLastCauseBecomesTheUnderlyingError() {
        let broken = EventStreamError(code: .transport, message: "Connecting failed", underlying: Self.cause)
        let exhausted = EventStreamError(code: .attemptsExhausted, message: "gave up", underlying: broken)
        let error = ResolveKitError(.unreachable, "The event stream failed", underlying: exhausted)
        #expect((error.underlying as? HTTPError)?.code == .pinMismatch)
    }

    @Test func aProxysAnswerToTheEventStreamIsNamed() {
        let refused = EventStreamError(code: .httpStatus, message: "HTTP 407", status: 407)
        let error = ResolveKitError(.unreachable, "The event stream failed", underlying: refused)
        #expect((error.underlying as? HTTPError)?.code == .proxyAuthenticationRequired)
    }

    @Test func otherCausesStayAsTheyWere() {
        let status = BackendError(code: .httpStatus, endpoint: "POST /v1/sessions", message: "HTTP 500", status: 500)
        let error = ResolveKitError(.backend, "refused", underlying: status)
        #expect(error.underlying is BackendError)
    }
}
