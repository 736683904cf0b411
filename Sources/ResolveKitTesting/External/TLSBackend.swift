import Foundation
import Synchronization

/// The reference backend on a loopback port behind a real nginx that terminates TLS with ``TestCertificates``'
/// server certificate (with mutual TLS, nginx also requires a client certificate from their client CA), recording
/// the header fields of every request that reaches the backend: what a tool's network tests point it at. Everything
/// it started stops on every exit path of ``run(apiKey:mutualTLS:_:)``.
package struct TLSBackend: Sendable {
    /// The reference backend behind nginx.
    package let backend: ReferenceBackend
    /// nginx in front of it.
    package let nginx: NginxTLSProxy
    /// The certificates nginx serves and trusts.
    package let certificates: TestCertificates
    private let received: Received

    /// `https://127.0.0.1:PORT`: nginx.
    package var baseURL: String { nginx.baseURL }

    /// Every request's header fields that reached the backend, one `name: value` line each, lower-cased, in the
    /// order the requests arrived.
    package var receivedHeaders: [String] { received.lines.withLock { $0 } }

    /// Whether the programs it needs are here (or this is CI, where their absence fails the test).
    package static var shouldRun: Bool { ExternalProgram.nginx.shouldRun && ExternalProgram.openssl.shouldRun }

    /// What a test without them says it needs.
    package static var skipNote: String { [ExternalProgram.nginx, .openssl].map(\.skipNote).joined(separator: "; ") }

    /// Runs `body` with the backend (accepting `apiKey`, with its default agent) behind nginx.
    /// - Throws: ``ExternalProgram/Missing`` without nginx or openssl; what `body` throws.
    package static func run(
        apiKey: String, mutualTLS: Bool = false, _ body: (TLSBackend) async throws -> Void
    ) async throws {
        let certificates = try await TestCertificates.shared()
        let backend = ReferenceBackend(configuration: .init(apiKeys: [apiKey]))
        let received = Received()
        let server = try LoopbackHTTPServer.start { request in
            received.add(request.headers.map { "\($0.name): \($0.value)".lowercased() })
            return await backend.handle(request)
        }
        var nginx: NginxTLSProxy?
        do {
            nginx = try await NginxTLSProxy.start(
                upstreamPort: server.port, certificate: certificates.serverCertificate, key: certificates.serverKey,
                clientCA: mutualTLS ? certificates.clientCAFile : nil)
            try await body(
                TLSBackend(backend: backend, nginx: nginx!, certificates: certificates, received: received))
        } catch {
            await nginx?.stop()
            await backend.stop()
            await server.stop()
            throw error
        }
        await nginx?.stop()
        await backend.stop()
        await server.stop()
    }

    private final class Received: Sendable {
        let lines = Mutex<[String]>([])
        func add(_ fields: [String]) { lines.withLock { $0 += fields } }
    }
}
