import ResolveKitTelemetry
import ResolveKitTelemetryHTTP
import ResolveKitTesting
import Testing

@Suite(.timeLimit(.minutes(1)))
struct OTLPTransportTests {
    /// A request to `url`; the default timeout leaves room for a machine busy with the whole parallel run, where a
    /// loopback exchange has taken over 5 s.
    static func request(_ url: String, timeout: Duration = .seconds(30)) -> OTLPRequest {
        OTLPRequest(
            url: url, headers: [("Content-Type", "application/json"), ("Api-Key", "s3cret")],
            body: Array(#"{"resourceSpans":[]}"#.utf8), timeout: timeout)
    }

    @Test func anHTTPSEndpointIsRefusedWhenThePlainTransportIsCreated() {
        let error = #expect(throws: TelemetryError.self) {
            try PlainHTTPTransport(endpoints: ["https://collector.example.com/v1/traces"])
        }
        #expect(error?.code == .unsupportedEndpoint)
        #expect(error?.message.contains("http://127.0.0.1:4318") == true)
        #expect(throws: TelemetryError.self) { try PlainHTTPTransport(endpoints: ["not a url"]) }
    }

    @Test(arguments: ["plain", "curl"])
    func aPostArrivesWithItsHeadersAndTheAnswerIsRead(transportName: String) async throws {
        let receiver = OTLPReceiver([OTLPReceiver.Reply(status: 429, retryAfter: "3")])
        try await LoopbackHTTPServer.withServer(handler: receiver.handler) { server in
            let transport: any OTLPTransport = transportName == "plain" ? try PlainHTTPTransport() : CurlOTLPTransport()
            let url = server.baseURL + "/v1/traces?x=1"
            let throttled = try await transport.send(Self.request(url))
            #expect(throttled.status == 429)
            #expect(throttled.retryAfter == "3")
            #expect(throttled.body == Array("{}".utf8))
            let ok = try await transport.send(Self.request(url))
            #expect(ok.status == 200)
            let first = try #require(receiver.requests.first)
            #expect(first.method == "POST")
            #expect(first.target == "/v1/traces?x=1")
            #expect(first.header("Api-Key") == "s3cret")
            #expect(first.body == Array(#"{"resourceSpans":[]}"#.utf8))
            #expect(server.connectionCount == 1, "the connection is kept alive between exports")
            // A flush's export, sent at normal priority (the curl transport's second client).
            var urgent = Self.request(url)
            urgent.isUrgent = true
            #expect(try await transport.send(urgent).status == 200)
            #expect(receiver.requests.count == 3)
            await transport.shutdown()
            for request in [Self.request(url), urgent] {
                let error = await #expect(throws: TelemetryError.self) { try await transport.send(request) }
                #expect(error?.code == .shutdown)
            }
        }
    }

    @Test func aClosedPortIsAConnectFailure() async throws {
        let closed = try LoopbackRefusingPort()
        defer { closed.close() }
        let url = closed.baseURL + "/v1/traces"
        let error = await #expect(throws: TelemetryError.self) {
            try await PlainHTTPTransport().send(Self.request(url))
        }
        #expect(error?.code == .connectFailed)
        #expect(error?.errno != nil)
    }

    @Test func anEndpointThatDoesNotAnswerTimesOut() async throws {
        let receiver = OTLPReceiver([OTLPReceiver.Reply(status: 200, delay: .seconds(30))])
        try await LoopbackHTTPServer.withServer(handler: receiver.handler) { server in
            let clock = ContinuousClock()
            let start = clock.now
            let error = await #expect(throws: TelemetryError.self) {
                try await PlainHTTPTransport().send(Self.request(server.baseURL, timeout: .milliseconds(300)))
            }
            #expect(error?.code == .timedOut)
            // By the 300 ms timeout, not the receiver's 30 s, with room for a machine busy with the whole suite.
            #expect(clock.now - start < .seconds(15))
        }
    }

    @Test func aCancelledSendStopsWaiting() async throws {
        let receiver = OTLPReceiver([OTLPReceiver.Reply(status: 200, delay: .seconds(30))])
        try await LoopbackHTTPServer.withServer(handler: receiver.handler) { server in
            let transport = try PlainHTTPTransport()
            let sending = Task { try await transport.send(Self.request(server.baseURL, timeout: .seconds(30))) }
            #expect(await pollUntil { receiver.requests.count == 1 })
            sending.cancel()
            let result = await sending.result
            guard case .failure(let error as TelemetryError) = result else {
                Issue.record("the cancelled send returned \(result)")
                return
            }
            #expect(error.code == .shutdown)
        }
    }

    @Test func theSecretHeaderNeverReachesAnError() async throws {
        let closed = try LoopbackRefusingPort()
        defer { closed.close() }
        let url = closed.baseURL
        for transport in [try PlainHTTPTransport(), CurlOTLPTransport()] as [any OTLPTransport] {
            do {
                _ = try await transport.send(Self.request(url))
                Issue.record("a closed port answered")
            } catch {
                #expect(!"\(error)".contains("s3cret"))
            }
            await transport.shutdown()
        }
    }
}

struct OTLPRequestDescriptionTests {
    @Test func aRequestDescribesItselfWithoutHeaderValuesOrCredentials() {
        let request = OTLPRequest(
            url: "http://user:pw@collector:4318/v1/traces", headers: [("api-key", "s3cret")], body: [1, 2, 3],
            timeout: .seconds(1))
        for text in ["\(request)", String(reflecting: request), "\([request])"] {
            #expect(!text.contains("s3cret") && !text.contains("pw@"), "\(text)")
        }
        #expect("\(request)" == "POST http://…@collector:4318/v1/traces (3 bytes, headers: api-key)")
    }
}
