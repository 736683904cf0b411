import ResolveKitHTTP
import ResolveKitTesting
import Synchronization
import Testing

/// A connection that stops forwarding without closing (a proxy or a NAT that dropped the flow) must not take the
/// requests after the one that timed out on it. Over HTTP/2 every request to a server shares one connection, and
/// libcurl keeps it after one of its streams timed out.
@Suite(.timeLimit(.minutes(1)), .enabled(if: TLSFixture.enabled, TLSFixture.skipNote))
struct StalledConnectionTests {
    @Test func aRequestAfterOneThatTimedOutOnAStalledHTTP2ConnectionGoesOverANewOne() async throws {
        try await TLSFixture.run { fixture in
            let relay = try LoopbackTCPRelay(targetPort: fixture.proxy.process.port)
            defer { relay.stop() }
            let connected = Mutex<[Bool]>([])
            var network = fixture.trusted
            network.observer = { record in connected.withLock { $0.append(record.timings.connect > .zero) } }
            let url = "https://127.0.0.1:\(relay.port)/hello"
            try await HTTPClient.withClient { client in
                let first = try await client.send(HTTPRequest(url: url, network: network))
                #expect(first.httpVersion == .http2)
                relay.stallOpenConnections()
                let stalled = await #expect(throws: HTTPError.self) {
                    try await client.send(HTTPRequest(url: url, timeout: .seconds(1), network: network))
                }
                #expect(stalled?.code == .timedOut)
                let third = try await client.send(HTTPRequest(url: url, timeout: .seconds(10), network: network))
                #expect(third.status == 200)
            }
            // The second request went over the first one's connection; the third connected anew.
            #expect(connected.withLock { $0 } == [true, false, true])
            #expect(fixture.requests.all.count == 2)
        }
    }
}
