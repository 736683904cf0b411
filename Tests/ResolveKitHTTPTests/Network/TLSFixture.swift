import ResolveKitHTTP
import ResolveKitTesting
import Synchronization
import Testing

/// A loopback HTTP server that records the requests it got, behind a real nginx terminating TLS with a chosen
/// certificate (and client-certificate requirement); everything is stopped on every exit path.
struct TLSFixture: Sendable {
    let certificates: TestCertificates
    let upstream: LoopbackHTTPServer
    let proxy: NginxTLSProxy
    let requests: RequestLog

    var baseURL: String { proxy.baseURL }

    /// Whether the tests that need nginx and openssl run (they are skipped with the install line otherwise).
    static let enabled = ExternalProgram.nginx.shouldRun && ExternalProgram.openssl.shouldRun
    static let skipNote = Comment(rawValue: "\(ExternalProgram.nginx.skipNote); \(ExternalProgram.openssl.skipNote)")

    /// Runs `body` with nginx serving `certificate` (the valid server certificate by default) in front of a server
    /// that records each request and answers it with `respond` (by default `200 ok`).
    static func run(
        certificate: KeyPath<TestCertificates, String> = \.serverCertificate, requireClientCertificate: Bool = false,
        respond: @escaping @Sendable (LoopbackRequest) async -> LoopbackResponse = { _ in
            LoopbackResponse(status: 200, headers: [("Content-Type", "text/plain")], body: .bytes(Array("ok".utf8)))
        },
        _ body: (TLSFixture) async throws -> Void
    ) async throws {
        _ = try ExternalProgram.nginx.require()
        let certificates = try await TestCertificates.shared()
        let requests = RequestLog()
        let upstream = try LoopbackHTTPServer.start { request in
            requests.append(request)
            return await respond(request)
        }
        let proxy: NginxTLSProxy
        do {
            proxy = try await NginxTLSProxy.start(
                upstreamPort: upstream.port, certificate: certificates[keyPath: certificate],
                key: certificates.serverKey, clientCA: requireClientCertificate ? certificates.clientCAFile : nil)
        } catch {
            await upstream.stop()
            throw error
        }
        let fixture = TLSFixture(certificates: certificates, upstream: upstream, proxy: proxy, requests: requests)
        do {
            try await body(fixture)
        } catch {
            await proxy.stop()
            await upstream.stop()
            throw error
        }
        await proxy.stop()
        await upstream.stop()
    }

    /// Settings that trust the test CA (added to the system store).
    var trusted: NetworkSettings { NetworkSettings(trust: .adding(caFile: certificates.caFile)) }

    /// `GET /path` with `network`, its body read.
    func get(_ path: String = "/hello", network: NetworkSettings, headers: HTTPHeaders = [:]) async throws
        -> HTTPCollectedResponse
    {
        try await HTTPClient.withClient { client in
            try await client.send(HTTPRequest(url: baseURL + path, headers: headers, network: network))
        }
    }

    /// The HTTP error `GET /hello` with `network` fails with.
    func failure(network: NetworkSettings) async -> HTTPError? {
        do {
            let response = try await get(network: network)
            Issue.record("the request succeeded with \(response.status)")
            return nil
        } catch {
            return error as? HTTPError
        }
    }
}

/// The requests a loopback server got, in order.
final class RequestLog: Sendable {
    private let requests = Mutex<[LoopbackRequest]>([])

    func append(_ request: LoopbackRequest) { requests.withLock { $0.append(request) } }

    var all: [LoopbackRequest] { requests.withLock { $0 } }
}
