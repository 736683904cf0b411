import Foundation
import ResolveKit
import ResolveKitHTTP
import ResolveKitTesting
import Synchronization
import Testing

/// The reference backend on a loopback port behind a real nginx that terminates TLS and requires a client
/// certificate, optionally behind a real tinyproxy that wants Basic credentials: a company's network in miniature.
/// Records what the backend received, what the library logged and what the observer saw; stops everything on every
/// exit path.
struct NetworkHarness: Sendable {
    static let apiKey = "rk_live_" + UUID().uuidString
    static let proxyPassword = "proxy-secret-" + UUID().uuidString.prefix(8)

    static let enabled =
        ExternalProgram.nginx.shouldRun && ExternalProgram.openssl.shouldRun && ExternalProgram.tinyproxy.shouldRun
    static let skipNote = Comment(
        rawValue: [ExternalProgram.nginx, .openssl, .tinyproxy].map(\.skipNote).joined(separator: "; "))

    let backend: ReferenceBackend
    let nginx: NginxTLSProxy
    let tinyproxy: TinyproxyServer
    let certificates: TestCertificates
    let received: Lines
    let logged: Lines
    let observed: Lines

    static func run(_ body: (NetworkHarness) async throws -> Void) async throws {
        let certificates = try await TestCertificates.shared()
        let backend = ReferenceBackend(configuration: .init(apiKeys: [apiKey], script: TestTools.script))
        let received = Lines()
        let server = try LoopbackHTTPServer.start { request in
            received.add(request.headers.map { "\($0.name): \($0.value)" }.joined(separator: "\n"))
            return await backend.handle(request)
        }
        var nginx: NginxTLSProxy?
        var tinyproxy: TinyproxyServer?
        do {
            nginx = try await NginxTLSProxy.start(
                upstreamPort: server.port, certificate: certificates.serverCertificate, key: certificates.serverKey,
                clientCA: certificates.clientCAFile)
            tinyproxy = try await TinyproxyServer.start(user: "svc-agent", password: proxyPassword)
            try await body(
                NetworkHarness(
                    backend: backend, nginx: nginx!, tinyproxy: tinyproxy!, certificates: certificates,
                    received: received, logged: Lines(), observed: Lines()))
        } catch {
            await tinyproxy?.stop()
            await nginx?.stop()
            await backend.stop()
            await server.stop()
            throw error
        }
        await tinyproxy?.stop()
        await nginx?.stop()
        await backend.stop()
        await server.stop()
    }

    /// Everything the company's network needs: the test CA, the client certificate with its encrypted key, the
    /// proxy with its credentials, a gateway header, pins for the server's key and a staged next one, an observer.
    var network: NetworkSettings {
        let certificates = certificates
        let observed = observed
        let passphrase = certificates.clientKeyPassphrase
        let password = Self.proxyPassword
        return NetworkSettings(
            trust: .adding(caFile: certificates.caFile),
            clientIdentity: .init(
                certificateFile: certificates.clientCertificate, keyFile: certificates.encryptedClientKey,
                passphrase: { passphrase }),
            pinnedPublicKeys: [try! .init(certificates.otherPin), try! .init(certificates.serverPin)],
            proxy: .server(.init(url: tinyproxy.url, credentials: { .init(user: "svc-agent", password: password) })),
            headers: ["X-Tenant": "acme"],
            headerProvider: { _, _ in ["X-Gateway-Token": "rotating-1"] },
            observer: { record in
                let proxy = record.proxyStatus.map(String.init) ?? "none"
                observed.add(
                    "\(record) (proxy \(proxy), reused \(record.reusedConnection), sent \(record.bytesSent), "
                        + "received \(record.bytesReceived))")
            })
    }

    func configuration(network: NetworkSettings? = nil, connectTimeout: Duration = .seconds(20))
        -> ResolveKitConfiguration
    {
        let logged = logged
        return ResolveKitConfiguration(
            baseURL: URL(string: nginx.baseURL)!,
            apiKeyProvider: { Self.apiKey },
            functions: TestTools.all,
            approver: AutoApprover(),
            logger: ResolveKitLogger(label: "test", minimumLevel: .trace) { record in
                logged.add("\(record.label) \(record.message) \(record.metadata)")
            },
            stateLocation: .inMemory,
            connectTimeout: connectTimeout,
            network: network ?? self.network)
    }

    /// The newest of what the client's exchanges, the library's log, nginx and tinyproxy recorded, to read beside a
    /// failure.
    var diagnostics: String {
        func newest(_ lines: [String]) -> String { lines.suffix(30).joined(separator: "\n") }
        func newest(_ text: String) -> String { newest(text.split(separator: "\n").map(String.init)) }
        return """
            exchanges:
            \(newest(observed.all))
            log:
            \(newest(logged.all))
            nginx:
            \(newest(nginx.process.log))
            tinyproxy:
            \(newest(tinyproxy.log))
            """
    }

    /// The secrets that must never be seen: the API key, the proxy password, the key passphrase.
    var secrets: [String] { [Self.apiKey, Self.proxyPassword, certificates.clientKeyPassphrase] }

    final class Lines: Sendable {
        private let items = Mutex<[String]>([])
        func add(_ item: String) { items.withLock { $0.append(item) } }
        var all: [String] { items.withLock { $0 } }
    }
}
