import ResolveKitHTTP
import ResolveKitTelemetry
import ResolveKitTesting
import Testing

@Suite(.timeLimit(.minutes(1)))
struct MetricsEndpointTests {
    static func registry() throws -> MetricsRegistry {
        let registry = MetricsRegistry()
        let jobs = try registry.counter(MetricDescriptor("app_jobs", help: "Jobs."))
        jobs.add(3)
        return registry
    }

    @Test func getMetricsAnswersTheRegistrysTextInTheFormatAsked() async throws {
        let endpoint = try MetricsEndpoint.start(listen: "127.0.0.1:0", registry: Self.registry())
        defer { endpoint.stop() }
        #expect(endpoint.address == "127.0.0.1:\(endpoint.port)")
        try await HTTPClient.withClient { client in
            let url = "http://\(endpoint.address)/metrics"
            let text = try await client.send(HTTPRequest(url: url)).requireSuccess()
            #expect(text.headers["Content-Type"] == "text/plain; version=0.0.4; charset=utf-8")
            #expect(String(decoding: text.body, as: UTF8.self).contains("app_jobs_total 3\n"))
            let accept = "application/openmetrics-text;version=1.0.0;q=0.5,text/plain;version=0.0.4;q=0.3"
            let openMetrics = try await client.send(HTTPRequest(url: url, headers: ["Accept": accept]))
            #expect(openMetrics.headers["Content-Type"] == "application/openmetrics-text; version=1.0.0; charset=utf-8")
            #expect(String(decoding: openMetrics.body, as: UTF8.self).hasSuffix("# EOF\n"))
            let missing = try await client.send(HTTPRequest(url: "http://\(endpoint.address)/"))
            #expect(missing.status == 404)
            let post = try await client.send(HTTPRequest(method: .post, url: url, body: []))
            #expect(post.status == 404)
        }
        #expect(endpoint.requestCount == 4)
    }

    @Test func anOversizedRequestHeadGets431() async throws {
        let endpoint = try MetricsEndpoint.start(listen: "127.0.0.1:0", registry: Self.registry())
        defer { endpoint.stop() }
        let head = "GET /metrics HTTP/1.1\r\nX-Filler: " + String(repeating: "a", count: 9000) + "\r\n\r\n"
        let answer = String(decoding: await RawClient.exchange(port: endpoint.port, Array(head.utf8)), as: UTF8.self)
        #expect(answer.hasPrefix("HTTP/1.1 431 "))
        let garbage = String(
            decoding: await RawClient.exchange(port: endpoint.port, Array("hello\r\n\r\n".utf8)), as: UTF8.self)
        #expect(garbage.hasPrefix("HTTP/1.1 400 "))
    }

    @Test func aClientThatSendsNothingIsDisconnectedAfterTheRequestTimeout() async throws {
        let limits = MetricsEndpoint.Limits(requestTimeout: .milliseconds(200))
        let endpoint = try MetricsEndpoint.start(listen: "127.0.0.1:0", registry: Self.registry(), limits: limits)
        defer { endpoint.stop() }
        let clock = ContinuousClock()
        let start = clock.now
        let answer = await RawClient.exchange(port: endpoint.port, Array("GET /metr".utf8))
        #expect(answer.isEmpty)
        // Half the client's 30 s: room for a machine busy with the whole suite, far from a wait for the client.
        #expect(clock.now - start < .seconds(15), "closed by the endpoint, not by the client's 30 s timeout")
        let healthy = await RawClient.exchange(port: endpoint.port, Array("GET /metrics HTTP/1.1\r\n\r\n".utf8))
        #expect(String(decoding: healthy, as: UTF8.self).hasPrefix("HTTP/1.1 200 OK"))
    }

    @Test(arguments: ["[::1]:0", ":0"])
    func otherLoopbackAddressesAreServed(listen: String) throws {
        let endpoint = try MetricsEndpoint.start(listen: listen, registry: Self.registry())
        #expect(endpoint.port > 0)
        endpoint.stop()
        endpoint.stop()
    }

    @Test(arguments: ["localhost:9464", "127.0.0.1", "127.0.0.1:70000", "[::1:9464"])
    func anAddressThatIsNotNumericHostAndPortIsRefused(listen: String) throws {
        let error = #expect(throws: TelemetryError.self) {
            try MetricsEndpoint.start(listen: listen, registry: MetricsRegistry())
        }
        #expect(error?.code == .invalidConfiguration)
    }

    @Test func aPortInUseIsReportedAtOnce() throws {
        let first = try MetricsEndpoint.start(listen: "127.0.0.1:0", registry: MetricsRegistry())
        defer { first.stop() }
        let error = #expect(throws: TelemetryError.self) {
            try MetricsEndpoint.start(listen: first.address, registry: MetricsRegistry())
        }
        #expect(error?.code == .socketFailed)
        #expect(error?.errno == 98)
    }
}
