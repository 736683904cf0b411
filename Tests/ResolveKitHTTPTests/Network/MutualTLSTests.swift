import ResolveKitHTTP
import ResolveKitTesting
import Testing

/// Mutual TLS: a client certificate with a key behind a passphrase, accepted by nginx; refused by nginx (which
/// answers with its own 400 page) and by an OpenSSL server (which sends a TLS alert), each with its cause named.
@Suite(.timeLimit(.minutes(1)), .enabled(if: TLSFixture.enabled, TLSFixture.skipNote))
struct MutualTLSTests {
    @Test func aClientCertificateWithAnEncryptedKeyIsAcceptedByNginx() async throws {
        try await TLSFixture.run(requireClientCertificate: true) { fixture in
            let certificates = fixture.certificates
            var network = fixture.trusted
            let passphrase = certificates.clientKeyPassphrase
            network.clientIdentity = .init(
                certificateFile: certificates.clientCertificate, keyFile: certificates.encryptedClientKey,
                passphrase: { passphrase })
            let response = try await fixture.get(network: network)
            #expect(response.status == 200)
            #expect(fixture.requests.all.count == 1)
        }
    }

    @Test func nginxRefusingAMissingOrForeignClientCertificateIsNamed() async throws {
        try await TLSFixture.run(requireClientCertificate: true) { fixture in
            let missing = try await fixture.get(network: fixture.trusted)
            #expect(
                HTTPError.networkRefusal(status: missing.status, body: missing.body)?.code == .clientCertificateRequired
            )
            var network = fixture.trusted
            network.clientIdentity = .init(
                certificateFile: fixture.certificates.strangerCertificate, keyFile: fixture.certificates.strangerKey)
            let foreign = try await fixture.get(network: network)
            #expect(
                HTTPError.networkRefusal(status: foreign.status, body: foreign.body)?.code == .clientCertificateRejected
            )
            #expect(fixture.requests.all.isEmpty)
        }
    }

    @Test func aWrongPassphraseMakesTheClientIdentityUnusableWithoutNamingIt() async throws {
        try await TLSFixture.run(requireClientCertificate: true) { fixture in
            var network = fixture.trusted
            network.clientIdentity = .init(
                certificateFile: fixture.certificates.clientCertificate,
                keyFile: fixture.certificates.encryptedClientKey,
                passphrase: { "wrong-passphrase-123" })
            let error = await fixture.failure(network: network)
            #expect(error?.code == .clientIdentityUnusable)
            #expect(error?.description.contains("wrong-passphrase-123") == false)
        }
    }

    @Test func anOpenSSLServerAlertingForAMissingCertificateIsClientCertificateRequired() async throws {
        try await OpenSSLServer.run { server, certificates in
            let error = await server.failure(network: NetworkSettings(trust: .adding(caFile: certificates.caFile)))
            #expect(error?.code == .clientCertificateRequired)
        }
    }

    @Test func anOpenSSLServerAlertingForAForeignCertificateIsClientCertificateRejected() async throws {
        try await OpenSSLServer.run { server, certificates in
            var network = NetworkSettings(trust: .adding(caFile: certificates.caFile))
            network.clientIdentity = .init(
                certificateFile: certificates.strangerCertificate, keyFile: certificates.strangerKey)
            let error = await server.failure(network: network)
            #expect(error?.code == .clientCertificateRejected)
        }
    }
}

/// `openssl s_server` requiring a client certificate signed by the client CA (`-Verify 1 -verify_return_error`):
/// unlike nginx, it refuses in TLS, with an alert.
struct OpenSSLServer {
    let process: LoopbackServerProcess

    static func run(_ body: (OpenSSLServer, TestCertificates) async throws -> Void) async throws {
        let openssl = try ExternalProgram.openssl.require()
        let certificates = try await TestCertificates.shared()
        let process = try await LoopbackServerProcess.start(openssl, name: "s_server", logFile: "stderr.log") {
            port, _ in
            [
                "s_server", "-accept", "127.0.0.1:\(port)", "-cert", certificates.serverCertificate, "-key",
                certificates.serverKey, "-CAfile", certificates.clientCAFile, "-Verify", "1", "-verify_return_error",
                "-www",
            ]
        }
        do {
            try await body(OpenSSLServer(process: process), certificates)
        } catch {
            await process.stop()
            throw error
        }
        await process.stop()
    }

    func failure(network: NetworkSettings) async -> HTTPError? {
        do {
            try await HTTPClient.withClient { client in
                let response = try await client.send(
                    HTTPRequest(url: "https://127.0.0.1:\(process.port)/", network: network))
                Issue.record("the request succeeded with \(response.status)")
            }
            return nil
        } catch {
            return error as? HTTPError
        }
    }
}
