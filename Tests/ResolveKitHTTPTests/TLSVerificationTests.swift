import Foundation
import ResolveKitChildProcess
import ResolveKitHTTP
import ResolveKitTesting
import Testing

/// TLS certificates are always verified, and nothing in the client's public surface can turn that off.
@Suite(.timeLimit(.minutes(1)))
struct TLSVerificationTests {
    @Test(.enabled(if: ExternalProgram.openssl.shouldRun, Comment(rawValue: ExternalProgram.openssl.skipNote)))
    func aServerWithASelfSignedCertificateIsRefusedWithATLSError() async throws {
        let server = try await SelfSignedServer.start()
        let code: HTTPError.Code?
        do {
            let response = try await HTTPClient.withClient { client in
                try await client.send(HTTPRequest(method: .get, url: "https://127.0.0.1:\(server.process.port)/"))
            }
            Issue.record("the request succeeded with \(response.status)")
            code = nil
        } catch {
            code = (error as? HTTPError)?.code
        }
        await server.stop()
        #expect(code == .untrustedCertificate)
    }

    /// A new stored option on these types (say, one that skips verification) fails here, so adding one is a
    /// deliberate, reviewed change.
    @Test func theClientAndRequestOptionsHaveNoWayToSkipVerification() {
        let client = Set(Mirror(reflecting: HTTPClient.Configuration()).children.compactMap(\.label))
        #expect(client == ["maxBufferedBodyBytes", "userAgent", "maxCachedConnections", "isBackground"])
        let request = Set(Mirror(reflecting: HTTPRequest(method: .get, url: "https://x/")).children.compactMap(\.label))
        #expect(
            request == [
                "method", "url", "headers", "body", "connectTimeout", "timeout", "followRedirects",
                "receiveBufferBytes", "isLongLived", "network", "closesConnection", "stallSignal",
            ])
        let network = Set(Mirror(reflecting: NetworkSettings()).children.compactMap(\.label))
        #expect(
            network == [
                "trust", "clientIdentity", "pinnedPublicKeys", "proxy", "headers", "headerProvider", "observer",
                "observerIsListening", "minimumTLSVersion", "httpVersion", "connectTimeout", "lowSpeedLimit",
            ])
        let trust = Set(Mirror(reflecting: NetworkSettings.Trust.system).children.compactMap(\.label))
        #expect(trust == ["caFile", "caDirectory", "includesSystemStore", "cacheLifetime"])
    }
}

/// `openssl s_server` with a fresh self-signed certificate for 127.0.0.1, on a loopback port it is seen listening on.
private struct SelfSignedServer {
    let process: LoopbackServerProcess
    /// Where the certificate and its key are.
    let certificates: String

    static func start() async throws -> SelfSignedServer {
        let openssl = try ExternalProgram.openssl.require()
        let certificates = FileManager.default.temporaryDirectory.appendingPathComponent("rk-tls-\(UUID().uuidString)")
            .path
        try FileManager.default.createDirectory(atPath: certificates, withIntermediateDirectories: true)
        let made = try await ChildProcess.runToEnd(
            openssl,
            arguments: [
                "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout",
                certificates + "/key.pem", "-out", certificates + "/cert.pem", "-days", "1", "-subj", "/CN=localhost",
                "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1",
            ])
        guard made.termination.reason == .exit, made.termination.status == 0 else {
            try? FileManager.default.removeItem(atPath: certificates)
            throw FixtureError("openssl req failed: \(made.standardError)")
        }
        do {
            let process = try await LoopbackServerProcess.start(openssl, name: "s_server", logFile: "stderr.log") {
                port, _ in
                [
                    "s_server", "-accept", "127.0.0.1:\(port)", "-cert", certificates + "/cert.pem", "-key",
                    certificates + "/key.pem", "-www",
                ]
            }
            return SelfSignedServer(process: process, certificates: certificates)
        } catch {
            try? FileManager.default.removeItem(atPath: certificates)
            throw error
        }
    }

    func stop() async {
        await process.stop()
        try? FileManager.default.removeItem(atPath: certificates)
    }
}
