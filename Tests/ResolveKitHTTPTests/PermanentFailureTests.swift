import ResolveKitHTTP
import ResolveKitTesting
import Testing

/// Which transport failures no retry can fix, tried against real loopback servers: a client gives up on those
/// at once and keeps retrying the others.
@Suite(.timeLimit(.minutes(1)))
struct PermanentFailureTests {
    /// A host name with a 64-letter label: no resolver can look it up, so it fails without a DNS query leaving the
    /// machine.
    static let unresolvableURL = "http://" + String(repeating: "a", count: 64) + ".invalid/"

    @Test func tlsToAPlainHTTPServerFailsAtOnceAndNamesTheFix() async throws {
        try await LoopbackHTTPServer.withServer(handler: { _ in LoopbackResponse(status: 200) }) { server in
            try await HTTPClient.withClient { client in
                let started = ContinuousClock.now
                let url = "https://127.0.0.1:\(server.port)/"
                let error = await #expect(throws: HTTPError.self) {
                    try await client.send(HTTPRequest(url: url, timeout: .seconds(30)))
                }
                // Half the request's 30 s timeout: at once, with room for a machine busy with the whole suite.
                #expect(ContinuousClock.now - started < .seconds(15))
                #expect(error?.code == .tlsFailed)
                #expect(error?.curlCode == 35)
                #expect(error?.isPermanent == true)
                #expect(error?.message.contains("answered the TLS handshake in plain HTTP: use an http:// URL") == true)
            }
        }
    }

    @Test func aHostNameThatDoesNotResolveCannotBeFixedByRetrying() async throws {
        try await HTTPClient.withClient { client in
            let error = await #expect(throws: HTTPError.self) {
                try await client.send(HTTPRequest(url: Self.unresolvableURL, timeout: .seconds(30)))
            }
            #expect(error?.code == .connectFailed)
            #expect(error?.curlCode == 6)
            #expect(error?.isPermanent == true)
        }
    }

    @Test func aRefusedConnectionADeadlineAndAStatusMayBeFixedByRetrying() async throws {
        let closed = try LoopbackRefusingPort()
        defer { closed.close() }
        let refusedURL = closed.baseURL
        try await HTTPClient.withClient { client in
            let refused = await #expect(throws: HTTPError.self) { try await client.send(HTTPRequest(url: refusedURL)) }
            #expect(refused?.curlCode == 7)
            #expect(refused?.isPermanent == false)
        }
        let gate = Gate()
        try await LoopbackHTTPServer.withServer(handler: { request in
            if request.path == "/slow" { await gate.wait() }
            return LoopbackResponse(status: 503)
        }) { server in
            try await HTTPClient.withClient { client in
                let late = await #expect(throws: HTTPError.self) {
                    try await client.send(HTTPRequest(url: server.baseURL + "/slow", timeout: .milliseconds(200)))
                }
                #expect(late?.code == .timedOut)
                #expect(late?.isPermanent == false)
                gate.open()
                let response = try await client.send(HTTPRequest(url: server.baseURL))
                #expect(response.status == 503)
                #expect(!HTTPError.httpStatus(response.status, body: response.body).isPermanent)
            }
        }
    }
}
