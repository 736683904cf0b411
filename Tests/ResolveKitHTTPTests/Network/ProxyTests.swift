import Foundation
import ResolveKitHTTP
import ResolveKitTesting
import Synchronization
import Testing

/// A real forward proxy (tinyproxy) tunnelling TLS to nginx with `CONNECT`, with and without Basic credentials.
@Suite(
    .timeLimit(.minutes(1)),
    .enabled(
        if: TLSFixture.enabled && ExternalProgram.tinyproxy.shouldRun,
        Comment(rawValue: "\(TLSFixture.skipNote.rawValue); \(ExternalProgram.tinyproxy.skipNote)")))
struct ProxyTests {
    static let password = "proxy-pw-" + UUID().uuidString.prefix(8)

    @Test func requestsGoThroughTheConfiguredProxy() async throws {
        try await TLSFixture.run { fixture in
            let proxy = try await TinyproxyServer.start()
            defer { Task { await proxy.stop() } }
            var network = fixture.trusted
            network.proxy = .server(.init(url: proxy.url))
            #expect(try await fixture.get(network: network).status == 200)
            #expect(proxy.log.contains("CONNECT"))
            await proxy.stop()
        }
    }

    @Test func aProxyWithCredentialsLetsThemThroughAndAsksForThemOtherwise() async throws {
        try await TLSFixture.run { fixture in
            let password = Self.password
            let proxy = try await TinyproxyServer.start(user: "alice", password: password)
            let records = Mutex<[HTTPExchangeRecord]>([])
            var network = fixture.trusted
            network.observer = { record in records.withLock { $0.append(record) } }
            network.proxy = .server(.init(url: proxy.url, credentials: { .init(user: "alice", password: password) }))
            let accepted = try await fixture.get(network: network)
            network.proxy = .server(.init(url: proxy.url))
            let missing = await fixture.failure(network: network)
            network.proxy = .server(.init(url: proxy.url, credentials: { .init(user: "alice", password: "wrong") }))
            let wrong = await fixture.failure(network: network)
            await proxy.stop()
            #expect(accepted.status == 200)
            #expect(missing?.code == .proxyAuthenticationRequired)
            #expect(missing?.proxyStatus == 407)
            #expect(wrong?.code == .proxyAuthenticationRequired)
            let texts =
                ["\(String(describing: missing))", "\(String(describing: wrong))"]
                + records.withLock { $0 }.map { "\($0) \(String(reflecting: $0))" }
            #expect(!texts.contains { $0.contains(password) })
            // tinyproxy answers missing credentials with 407 and wrong ones with 401.
            #expect(records.withLock { $0 }.map(\.proxyStatus) == [200, 407, 401])
        }
    }

    @Test func aProxyThatIsNotThereIsProxyRefused() async throws {
        try await TLSFixture.run { fixture in
            let absent = try LoopbackRefusingPort()
            defer { absent.close() }
            var network = fixture.trusted
            network.proxy = .server(.init(url: absent.baseURL))
            let error = await fixture.failure(network: network)
            #expect(error?.code == .proxyRefused)
        }
    }

    @Test func aBypassedHostIsReachedDirectly() async throws {
        try await TLSFixture.run { fixture in
            var network = fixture.trusted
            network.proxy = .server(.init(url: "http://127.0.0.1:\(freeLoopbackPort())", bypassHosts: ["127.0.0.1"]))
            let response = try await fixture.get(network: network)
            #expect(response.status == 200)
        }
    }
}
