import ResolveKit
import ResolveKitHTTP
import Testing

@testable import rk_service

/// Why the service ended chooses its exit code: the state folder 73, a backend it cannot reach or a network that
/// refused 3 (as rk-chat), a backend that refused this host 69.
struct ServiceExitCodeTests {
    static let refusal = HTTPError(code: .clientCertificateRequired, message: "nginx wants a client certificate")

    @Test(arguments: [
        (ResolveKitError(.stateLocked, "held"), ExitCode.stateUnavailable),
        (ResolveKitError(.stateStore, "read-only"), .stateUnavailable),
        (ResolveKitError(.unreachable, "no connection within 5 attempts"), .unreachable),
        (ResolveKitError(.backend, "the backend refused the request", underlying: refusal), .unreachable),
        (ResolveKitError(.apiKeyRejected, "401"), .unavailable),
        (ResolveKitError(.unsupportedSDK, "too old"), .unavailable),
    ])
    func theCauseChoosesTheExitCode(error: ResolveKitError, code: ExitCode) {
        #expect(Service.exitCode(for: error) == code)
    }
}
