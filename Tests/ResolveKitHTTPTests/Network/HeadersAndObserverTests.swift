import Foundation
import ResolveKitHTTP
import ResolveKitTesting
import Synchronization
import Testing

/// Extra headers reach the server without ever replacing the request's own; the observer sees each exchange
/// without a secret.
@Suite(.timeLimit(.minutes(1)), .enabled(if: TLSFixture.enabled, TLSFixture.skipNote))
struct HeadersAndObserverTests {
    @Test func fixedAndPerRequestHeadersAreSeenByTheServer() async throws {
        try await TLSFixture.run { fixture in
            let counter = Mutex(0)
            var network = fixture.trusted
            network.headers = ["X-Tenant": "acme"]
            network.headerProvider = { method, url in
                let count = counter.withLock { value in
                    value += 1
                    return value
                }
                return ["X-Gateway-Token": "token-\(count)", "X-Seen": "\(method) \(url.hasSuffix("/hello"))"]
            }
            _ = try await fixture.get(network: network, headers: ["Authorization": "Bearer key"])
            _ = try await fixture.get(network: network)
            let seen = fixture.requests.all
            #expect(seen.map { $0.header("X-Tenant") } == ["acme", "acme"])
            #expect(seen.map { $0.header("X-Gateway-Token") } == ["token-1", "token-2"])
            #expect(seen.first?.header("X-Seen") == "GET true")
            #expect(seen.first?.header("Authorization") == "Bearer key")
        }
    }

    @Test func aHeaderProviderCannotReplaceAuthorizationAndNothingIsSent() async throws {
        try await TLSFixture.run { fixture in
            var network = fixture.trusted
            network.headerProvider = { _, _ in ["Authorization": "Bearer gateway"] }
            let error = await #expect(throws: HTTPError.self) {
                try await fixture.get(network: network, headers: ["Authorization": "Bearer key"])
            }
            #expect(error?.code == .headerNotAllowed)
            network.headerProvider = { _, _ in ["x-resolvekit-chat-capability": "forged"] }
            let capability = await #expect(throws: HTTPError.self) { try await fixture.get(network: network) }
            #expect(capability?.code == .headerNotAllowed)
            #expect(fixture.requests.all.isEmpty)
        }
    }

    @Test func theObserverSeesMethodURLStatusAndTimingsWithoutSecrets() async throws {
        try await TLSFixture.run { fixture in
            let records = Mutex<[HTTPExchangeRecord]>([])
            var network = fixture.trusted
            network.observer = { record in records.withLock { $0.append(record) } }
            let secretURL = fixture.baseURL.replacingOccurrences(of: "https://", with: "https://user:pa55word@")
            try await HTTPClient.withClient { client in
                let request = HTTPRequest(
                    url: secretURL + "/hello?cursor=7&token=query-secret", headers: ["Authorization": "Bearer api-key"],
                    network: network)
                let response = try await client.send(request)
                #expect(response.status == 200)
            }
            let record = try #require(records.withLock { $0 }.first)
            #expect(record.method == .get)
            #expect(record.url == fixture.baseURL + "/hello?cursor=7&token=…")
            #expect(record.status == 200)
            #expect(record.failure == nil)
            #expect(record.timings.tlsHandshake > .zero)
            #expect(record.timings.connect <= record.timings.tlsHandshake)
            #expect(record.timings.firstByte <= record.timings.total)
            #expect(record.bytesReceived == 2)
            let text = "\(record) \(String(reflecting: record))"
            for secret in ["pa55word", "query-secret", "api-key"] { #expect(!text.contains(secret)) }
        }
    }

    @Test func theObserverSeesAFailedExchangeWithItsCause() async throws {
        try await TLSFixture.run { fixture in
            let records = Mutex<[HTTPExchangeRecord]>([])
            let network = NetworkSettings(observer: { record in records.withLock { $0.append(record) } })
            _ = await fixture.failure(network: network)
            let record = try #require(records.withLock { $0 }.first)
            #expect(record.status == nil)
            #expect(record.failure == .untrustedCertificate)
        }
    }
}
