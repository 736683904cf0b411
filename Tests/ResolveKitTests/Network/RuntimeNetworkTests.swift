import Foundation
import ResolveKit
import ResolveKitHTTP
import ResolveKitTesting
import Testing

/// The runtime through a company's network: a proxy with credentials, nginx terminating TLS with a private CA and
/// requiring a client certificate, pinned keys, gateway headers. Failures reach the caller as `unreachable` with the
/// typed `HTTPError` that names the cause, and no secret is ever seen.
@Suite(.timeLimit(.minutes(1)), .serialized, .enabled(if: NetworkHarness.enabled, NetworkHarness.skipNote))
struct RuntimeNetworkTests {
    @Test func aTurnWithToolCallsAndAStreamResumeRunThroughTheProxyAndMutualTLS() async throws {
        try await NetworkHarness.run { harness in
            let runtime = ResolveKitRuntime(configuration: harness.configuration())
            do {
                try await runtime.start()
                try await runtime.converse("run three tools")
                #expect(runtime.messages.last?.text == "All done.")
                #expect(runtime.toolCallBatches.flatMap(\.items).map(\.status) == [.completed, .completed, .completed])
                let session = try #require(runtime.sessionID)
                harness.backend.dropOpenStreams()
                // The backend's spans are not observable: poll them, then wait for the runtime to be active again.
                #expect(
                    await pollUntil(timeout: .seconds(20)) {
                        harness.backend.streamSpans(ofSession: session).count >= 2
                    })
                await runtime.wait { $0.connectionState == .active }
                try await runtime.converse("what time is it")
                #expect(runtime.messages.last?.text.isEmpty == false)
                #expect(runtime.item("get_time")?.status == .completed)
            } catch {
                await runtime.stop()
                throw error
            }
            let texts = harness.logged.all + runtime.executionLog + harness.observed.all
            await runtime.stop()
            let counts = harness.backend.counters.toolResults.values
            // The second turn once went unanswered under the full suite's load (its message's POST got no answer in
            // 57 s), and was not reproduced since: a failure here carries what the client, the library, nginx and
            // tinyproxy saw.
            #expect(counts.map(\.accepted).reduce(0, +) == 4, "\(harness.diagnostics)")
            #expect(counts.map(\.duplicates).reduce(0, +) == 0)
            let received = harness.received.all.map { $0.lowercased() }
            #expect(received.allSatisfy { $0.contains("x-tenant: acme") && $0.contains("x-gateway-token: rotating-1") })
            #expect(harness.tinyproxy.log.contains("CONNECT"))
            #expect(
                harness.observed.all.contains {
                    $0.contains("POST https://127.0.0.1") && $0.contains("/messages → 202")
                })
            // A stream is observed when it ends; the curl thread ends the resumed one soon after stop().
            #expect(await pollUntil { harness.observed.all.contains { $0.contains("/events?cursor=") } })
            for secret in harness.secrets {
                #expect(!(texts + harness.observed.all).contains { $0.contains(secret) })
            }
        }
    }

    @Test func aServerCertificateFromAnUnknownCAFailsStartWithItsTypedCause() async throws {
        try await NetworkHarness.run { harness in
            var network = harness.network
            network.trust = .system
            let error = await Self.startFailure(harness.configuration(network: network, connectTimeout: .seconds(3)))
            #expect(error?.code == .unreachable)
            let cause = try #require(error?.underlying as? HTTPError)
            #expect(cause.code == .untrustedCertificate)
            #expect(error?.message.contains("certificate authority") == true)
        }
    }

    @Test func nginxRefusingAMissingClientCertificateFailsStartWithItsTypedCause() async throws {
        try await NetworkHarness.run { harness in
            var network = harness.network
            network.clientIdentity = nil
            let error = await Self.startFailure(harness.configuration(network: network, connectTimeout: .seconds(3)))
            #expect(error?.code == .unreachable)
            #expect((error?.underlying as? HTTPError)?.code == .clientCertificateRequired)
        }
    }

    @Test func wrongProxyCredentialsFailStartWithoutShowingAnySecret() async throws {
        try await NetworkHarness.run { harness in
            var network = harness.network
            network.proxy = .server(
                .init(url: harness.tinyproxy.url, credentials: { .init(user: "svc-agent", password: "nope") }))
            let configuration = harness.configuration(network: network, connectTimeout: .seconds(3))
            let error = await Self.startFailure(configuration)
            #expect((error?.underlying as? HTTPError)?.code == .proxyAuthenticationRequired)
            let texts =
                harness.logged.all + harness.observed.all + ["\(String(describing: error))"]
                + [String(reflecting: error as Any)]
            #expect(!texts.isEmpty)
            for secret in harness.secrets { #expect(!texts.contains { $0.contains(secret) }) }
        }
    }

    static func startFailure(_ configuration: ResolveKitConfiguration) async -> ResolveKitError? {
        let runtime = ResolveKitRuntime(configuration: configuration)
        do {
            try await runtime.start()
            Issue.record("start() succeeded")
            await runtime.stop()
            return nil
        } catch {
            await runtime.stop()
            return error
        }
    }
}
