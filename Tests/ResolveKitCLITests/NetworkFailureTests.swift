import ResolveKitCLINetwork
import ResolveKitCore
import ResolveKitHTTP
import Testing

/// The words a tool prints for a network failure, and which failures no retry can fix.
struct NetworkFailureTests {
    @Test(
        arguments: [
            (HTTPError.Code.untrustedCertificate, "untrusted certificate", "--ca-file", true),
            (.hostnameMismatch, "hostname mismatch", "--base-url", true),
            (.certificateExpired, "expired certificate", "renew", true),
            (.pinMismatch, "pin mismatch", "--pin", true),
            (.clientCertificateRequired, "client certificate required", "--client-cert", true),
            (.clientCertificateRejected, "client certificate rejected", "CA the server trusts", true),
            (.proxyAuthenticationRequired, "proxy needs authentication", "--proxy-password-file", true),
            (.proxyRefused, "proxy refused", "--proxy", false),
            (.connectFailed, "connection failed", nil, false),
        ] as [(HTTPError.Code, String, String?, Bool)])
    func eachCauseHasItsWordsAndTheFlagThatChangesIt(
        code: HTTPError.Code, words: String, fixMentions: String?, cannotBeRetried: Bool
    ) {
        let failure = NetworkFailure(HTTPError(code: code, message: "m"))
        #expect(failure.words == words)
        if let fixMentions { #expect(failure.fix?.contains(fixMentions) == true) } else { #expect(failure.fix == nil) }
        #expect(failure.retryingCannotHelp == cannotBeRetried)
    }

    @Test func theReportIsTheCauseInWordsThenTheMessageThenTheFix() {
        let cause = HTTPError(code: .pinMismatch, message: "The server's public key matches none of the pinned keys")
        let error = ResolveKitError(.unreachable, "No connection to https://h within 30 s", underlying: cause)
        #expect(
            NetworkFailure.report(error, tool: "rk-chat", headline: "could not connect") == [
                "rk-chat: could not connect: pin mismatch",
                "  No connection to https://h within 30 s",
                "  To fix: if the server's key was rotated on purpose, add the new key's --pin (RESOLVEKIT_PINS) "
                    + "beside the old one.",
            ])
        let other = ResolveKitError(.apiKeyRejected, "The backend rejected the API key")
        #expect(NetworkFailure(other) == nil)
        #expect(
            NetworkFailure.report(other, tool: "rk-chat", headline: "could not connect") == [
                "rk-chat: could not connect: The backend rejected the API key"
            ])
    }
}
