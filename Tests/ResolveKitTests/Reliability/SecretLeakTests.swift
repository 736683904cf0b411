import Foundation
import ResolveKit
import ResolveKitTesting
import Testing

@Suite(.timeLimit(.minutes(1)))
struct SecretLeakTests {
    /// Drives the paths that handle secrets (a turn, a token refresh, refused requests, a rejected key) and looks
    /// for the API key and every capability token sent in everything a host or operator can see.
    @Test func theAPIKeyAndCapabilityTokensNeverReachLogsTranscriptErrorsOrTheExecutionLog() async throws {
        let clock = ManualClock()
        try await SecurityHarness.run { harness in
            let faults = harness.backend.configuration.faults
            var errors: [String] = []
            let runtime = ResolveKitRuntime(configuration: harness.configuration(clock: ResolveKitClock(clock)))
            try await runtime.start()
            let pump = RuntimeRecoveryTests.advanceThroughReconnects(runtime, clock)
            try await runtime.converse("what time is it")
            harness.backend.expireCapabilityTokens()
            harness.backend.dropOpenStreams()
            await runtime.wait { $0.executionLog.contains { $0.hasPrefix("Refreshed the capability token") } }
            try await runtime.converse("what time is it again")
            faults.fail(.init("PATCH", "/v1/sessions/*/context"), status: 403)
            faults.fail(.init("GET", "/v1/sessions/*/localization"), status: 500)
            do {
                try await runtime.refreshSessionContext()
                Issue.record("the refused context patch did not throw")
            } catch {
                errors += ["\(error)", String(reflecting: error)]
            }
            do {
                try await runtime.setLocale("de")
                Issue.record("the failed localization did not throw")
            } catch {
                errors += ["\(error)", String(reflecting: error)]
            }
            pump.cancel()
            await runtime.stop()

            let wrongKey = "rk_wrong_" + UUID().uuidString
            let rejected = ResolveKitRuntime(configuration: harness.configuration(apiKey: wrongKey))
            do {
                try await rejected.start()
                Issue.record("a wrong API key was accepted")
            } catch {
                errors += ["\(error)", String(reflecting: error)]
            }
            await rejected.stop()

            let tokens = harness.tokens.all
            #expect(tokens.count >= 2, "a first and a refreshed token were sent")
            let texts = harness.visibleTexts(of: runtime) + harness.visibleTexts(of: rejected) + errors
            #expect(texts.contains { $0.contains("401") }, "the rejected key is reported")
            for secret in [SecurityHarness.apiKey, wrongKey] + tokens {
                #expect(!texts.contains { $0.contains(secret) }, "a secret leaked: \(secret.prefix(12))…")
            }
            for signature in tokens.compactMap({ $0.split(separator: ".").last.map(String.init) }) {
                #expect(!texts.contains { $0.contains(signature) }, "a token signature leaked")
            }
        }
    }
}
