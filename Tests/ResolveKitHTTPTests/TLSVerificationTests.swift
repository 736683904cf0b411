import Foundation
import Glibc
import ResolveKitChildProcess
import ResolveKitHTTP
import Synchronization
import Testing

/// TLS certificates are always verified, and nothing in the client's public surface can turn that off.
@Suite(.timeLimit(.minutes(1)))
struct TLSVerificationTests {
    static let openssl = "/usr/bin/openssl"

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: openssl)))
    func aServerWithASelfSignedCertificateIsRefusedWithATLSError() async throws {
        let server = try SelfSignedServer()
        defer { server.stop() }
        try await HTTPClient.withClient { client in
            // Until s_server listens, connecting is refused; then the handshake must fail verification.
            var code: HTTPError.Code?
            for _ in 0..<200 {
                do {
                    _ = try await client.send(HTTPRequest(method: .get, url: "https://127.0.0.1:\(server.port)/"))
                    code = nil
                } catch {
                    code = (error as? HTTPError)?.code
                }
                if code != .connectFailed { break }
                try await Task.sleep(for: .milliseconds(20))
            }
            #expect(code == .untrustedCertificate)
        }
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
                "receiveBufferBytes", "isLongLived", "network",
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

/// `openssl s_server` with a fresh self-signed certificate for 127.0.0.1, on a port the kernel picks.
private final class SelfSignedServer {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rk-tls-\(UUID().uuidString)").path
    let process: ChildProcess
    let port = SelfSignedServer.freePort()
    /// Kept open: `s_server` ends when its standard input does.
    let input = Pipe()

    init() throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let generate = try ChildProcess.spawn(
            TLSVerificationTests.openssl,
            arguments: [
                "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout",
                directory + "/key.pem", "-out", directory + "/cert.pem", "-days", "1", "-subj", "/CN=localhost",
                "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1",
            ], standardError: .nullDevice)
        generate.waitUntilExit()
        process = try ChildProcess.spawn(
            TLSVerificationTests.openssl,
            arguments: [
                "s_server", "-accept", "127.0.0.1:\(port)", "-cert", directory + "/cert.pem", "-key",
                directory + "/key.pem", "-www",
            ], standardInput: .pipe(input), standardOutput: .nullDevice, standardError: .nullDevice)
    }

    /// A port that was free a moment ago (the kernel picks it; the socket is closed again).
    static func freePort() -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
                _ = bind(descriptor, raw, length)
                _ = getsockname(descriptor, raw, &length)
            }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    func stop() {
        process.send(SIGKILL)
        process.waitUntilExit()
        try? FileManager.default.removeItem(atPath: directory)
    }
}
