import Foundation
import ResolveKitHTTP
import ResolveKitTesting
import Synchronization
import Testing

/// Trust, pins and certificate failures against a real nginx terminating TLS with certificates the `openssl`
/// command made: each failure reaches the caller with the code that names its cause.
@Suite(.timeLimit(.minutes(1)), .enabled(if: TLSFixture.enabled, TLSFixture.skipNote))
struct RealTLSTests {
    @Test func aPrivateCAFileAddedToTheSystemStoreVerifiesTheServer() async throws {
        try await TLSFixture.run { fixture in
            let response = try await fixture.get(network: fixture.trusted)
            #expect(response.status == 200)
            #expect(String(decoding: response.body, as: UTF8.self) == "ok")
        }
    }

    @Test func aHashedCAFolderAloneVerifiesTheServer() async throws {
        try await TLSFixture.run { fixture in
            let network = NetworkSettings(trust: .only(caDirectory: fixture.certificates.caDirectory))
            let response = try await fixture.get(network: network)
            #expect(response.status == 200)
        }
    }

    @Test func withoutThePrivateCAServerIsAnUntrustedCertificate() async throws {
        try await TLSFixture.run { fixture in
            let error = await fixture.failure(network: NetworkSettings())
            #expect(error?.code == .untrustedCertificate)
            #expect(error?.tlsVerifyResult == 20)
            #expect(error?.message.contains("certificate authority") == true)
            #expect(fixture.requests.all.isEmpty)
        }
    }

    @Test func anExpiredServerCertificateIsNamed() async throws {
        try await TLSFixture.run(certificate: \.expiredCertificate) { fixture in
            let error = await fixture.failure(network: fixture.trusted)
            #expect(error?.code == .certificateExpired)
            #expect(error?.tlsVerifyResult == 10)
        }
    }

    @Test func aCertificateForAnotherHostIsAHostnameMismatch() async throws {
        try await TLSFixture.run(certificate: \.wrongHostCertificate) { fixture in
            let error = await fixture.failure(network: fixture.trusted)
            #expect(error?.code == .hostnameMismatch, "\(String(describing: error))")
        }
    }

    @Test func aWrongPinIsAPinMismatchAndNothingReachesTheServer() async throws {
        try await TLSFixture.run { fixture in
            var network = fixture.trusted
            network.pinnedPublicKeys = [try .init(fixture.certificates.otherPin)]
            let error = await fixture.failure(network: network)
            #expect(error?.code == .pinMismatch)
            #expect(fixture.requests.all.isEmpty)
        }
    }

    @Test func theServersPinAmongSeveralPassesSoARotationCanBeStaged() async throws {
        try await TLSFixture.run { fixture in
            var network = fixture.trusted
            network.pinnedPublicKeys = [
                try .init(fixture.certificates.otherPin), try .init(fixture.certificates.serverPin),
            ]
            #expect(try await fixture.get(network: network).status == 200)
        }
    }

    @Test func tls13OnlyAndHTTP11AreAppliedThroughLibcurl() async throws {
        try await TLSFixture.run { fixture in
            var network = fixture.trusted
            network.minimumTLSVersion = .tls1_3
            network.httpVersion = .http1_1
            let response = try await fixture.get(network: network)
            #expect(response.httpVersion == .http1_1)
            network.httpVersion = .automatic
            #expect(try await fixture.get(network: network).httpVersion == .http2)
        }
    }
}
