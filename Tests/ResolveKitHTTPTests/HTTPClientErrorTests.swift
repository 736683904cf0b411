import Glibc
import ResolveKitHTTP
import ResolveKitTesting
import Testing

@Suite(.timeLimit(.minutes(1)))
struct HTTPClientErrorTests {
    @Test func aTotalDeadlineEndsAStreamThatOutlivesIt() async throws {
        try await LoopbackHTTPServer.withServer(handler: holdOpenHandler) { server in
            try await HTTPClient.withClient { client in
                let clock = ContinuousClock()
                let start = clock.now
                // The deadline covers the whole exchange. Usually it fires mid-body; when the machine is so busy
                // (a parallel test run on two cores, a sanitizer) that even the head is late, it fires before the
                // head, which is the same guarantee.
                var error: HTTPError?
                do {
                    let response = try await client.execute(HTTPRequest(url: server.baseURL, timeout: .seconds(1)))
                    error = await #expect(throws: HTTPError.self) { for try await _ in response.body {} }
                } catch let headError {
                    error = headError as? HTTPError
                }
                let elapsed = clock.now - start
                #expect(error?.code == .timedOut)
                #expect(error?.curlCode == 28)
                // The upper bound only tells the deadline from none (the server holds the stream open), with room for
                // a machine busy with the whole suite.
                #expect(elapsed >= .milliseconds(950) && elapsed < .seconds(15))
                #expect(await pollUntil { server.closedConnectionCount == 1 })
            }
        }
    }

    @Test func aTotalDeadlineAlsoCoversWaitingForTheHead() async throws {
        let gate = Gate()
        try await LoopbackHTTPServer.withServer(handler: { _ in
            await gate.wait()
            return LoopbackResponse(status: 200)
        }) { server in
            try await HTTPClient.withClient { client in
                let error = await #expect(throws: HTTPError.self) {
                    try await client.execute(HTTPRequest(url: server.baseURL, timeout: .milliseconds(200)))
                }
                #expect(error?.code == .timedOut)
                gate.open()
            }
        }
    }

    @Test func aClosedPortIsAConnectFailure() async throws {
        let closed = try LoopbackRefusingPort()
        defer { closed.close() }
        let url = closed.baseURL + "/"
        try await HTTPClient.withClient { client in
            let error = await #expect(throws: HTTPError.self) { try await client.execute(HTTPRequest(url: url)) }
            #expect(error?.code == .connectFailed)
            #expect(error?.curlCode == 7)
            #expect(error?.curlMessage?.isEmpty == false)
            // curl's words are in the message once, not repeated after its code.
            let description = error?.description ?? ""
            let words = error?.curlMessage ?? "?"
            #expect(description.ranges(of: words).count == 1, "\(description)")
            #expect(description.contains("(curl 7)"))
        }
    }

    @Test(arguments: ["not a url", "ftp://127.0.0.1/file"])
    func unusableURLsAreInvalidRequests(url: String) async throws {
        try await HTTPClient.withClient { client in
            let error = await #expect(throws: HTTPError.self) { try await client.execute(HTTPRequest(url: url)) }
            #expect(error?.code == .invalidRequest)
        }
    }

    @Test(arguments: [404, 409, 500, 503])
    func nonSuccessStatusesAreResultsUntilRequiredToSucceed(status: Int) async throws {
        let body = Array(#"{"detail":"nope"}"#.utf8)
        try await LoopbackHTTPServer.withServer(handler: { _ in LoopbackResponse(status: status, body: .bytes(body)) })
        {
            server in
            try await HTTPClient.withClient { client in
                let response = try await client.send(HTTPRequest(url: server.baseURL))
                #expect(response.status == status)
                let error = #expect(throws: HTTPError.self) { try response.requireSuccess() }
                #expect(error?.code == .httpStatus)
                #expect(error?.status == status)
                #expect(error?.body == body)
                #expect(error?.description.contains("nope") == true)

                let streamed = try await client.execute(HTTPRequest(url: server.baseURL))
                let checked = await #expect(throws: HTTPError.self) { try await streamed.checkStatus() }
                #expect(checked?.status == status)
                #expect(checked?.body == body)
            }
        }
    }

    @Test func collectFailsPastItsLimitAndAbortsTheTransfer() async throws {
        let payload = patternBytes(count: 1000)
        try await LoopbackHTTPServer.withServer(handler: { _ in LoopbackResponse(status: 200, body: .bytes(payload)) })
        {
            server in
            try await HTTPClient.withClient { client in
                let exact = try await client.execute(HTTPRequest(url: server.baseURL))
                #expect(try await exact.body.collect(upTo: 1000) == payload)
                let tooSmall = try await client.execute(HTTPRequest(url: server.baseURL))
                let error = await #expect(throws: HTTPError.self) { try await tooSmall.body.collect(upTo: 999) }
                #expect(error?.code == .bodyTooLarge)
            }
        }
    }

    @Test func aConnectionDroppedMidBodyIsAConnectionLoss() async throws {
        let handler: LoopbackHandler = { _ in
            LoopbackResponse(
                status: 200,
                body: .stream { writer in
                    try await writer.write(Array("partial".utf8))
                    await writer.abortConnection()
                })
        }
        try await LoopbackHTTPServer.withServer(handler: handler) { server in
            try await HTTPClient.withClient { client in
                let response = try await client.execute(HTTPRequest(url: server.baseURL))
                var received: [UInt8] = []
                let error = await #expect(throws: HTTPError.self) {
                    for try await chunk in response.body { received += chunk }
                }
                #expect(received == Array("partial".utf8))
                #expect(error?.code == .connectionLost)
            }
        }
    }
}
