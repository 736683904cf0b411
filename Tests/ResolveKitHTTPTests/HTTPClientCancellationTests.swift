import ResolveKitHTTP
import ResolveKitTesting
import Testing

@Suite(.timeLimit(.minutes(1)))
struct HTTPClientCancellationTests {
    @Test func cancellingTheReadingTaskAbortsTheTransferPromptly() async throws {
        try await LoopbackHTTPServer.withServer(handler: holdOpenHandler) { server in
            try await HTTPClient.withClient { client in
                let reader = Task { () async throws -> Int in
                    let response = try await client.execute(HTTPRequest(url: server.baseURL))
                    var chunks = 0
                    for try await _ in response.body { chunks += 1 }
                    return chunks
                }
                #expect(await pollUntil { server.requestCount == 1 })
                let clock = ContinuousClock()
                let start = clock.now
                reader.cancel()
                let result = await reader.result
                #expect(await pollUntil { server.closedConnectionCount == 1 })
                let latency = clock.now - start
                #expect(httpErrorCode(result) == .cancelled)
                // Without the abort the server would hold the transfer open until the test's time limit (a minute);
                // the bound leaves room for a 2-core machine busy with the whole parallel run, where the close was
                // seen after 4 s (0.53 s while another build ran).
                #expect(latency < .seconds(15), "the server saw the close after \(latency)")
            }
        }
    }

    @Test func droppingTheBodyIteratorAbortsTheTransfer() async throws {
        try await LoopbackHTTPServer.withServer(handler: holdOpenHandler) { server in
            try await HTTPClient.withClient { client in
                let response = try await client.execute(HTTPRequest(url: server.baseURL))
                for try await chunk in response.body {
                    #expect(chunk == Array("hello".utf8))
                    break
                }
                #expect(await pollUntil { server.closedConnectionCount == 1 })
            }
        }
    }

    @Test func droppingAnUnreadResponseAbortsTheTransfer() async throws {
        try await LoopbackHTTPServer.withServer(handler: holdOpenHandler) { server in
            try await HTTPClient.withClient { client in
                let status = try await client.execute(HTTPRequest(url: server.baseURL)).status
                #expect(status == 200)
                #expect(await pollUntil { server.closedConnectionCount == 1 })
            }
        }
    }

    @Test func cancellingWhileWaitingForTheHeadThrowsCancelled() async throws {
        let gate = Gate()
        let handler: LoopbackHandler = { _ in
            await gate.wait()
            return LoopbackResponse(status: 200, body: .bytes(Array("late".utf8)))
        }
        try await LoopbackHTTPServer.withServer(handler: handler) { server in
            try await HTTPClient.withClient { client in
                let waiter = Task { () async throws -> Int in
                    try await client.execute(HTTPRequest(url: server.baseURL)).status
                }
                #expect(await pollUntil { server.requestCount == 1 })
                waiter.cancel()
                let result = await waiter.result
                #expect(httpErrorCode(result) == .cancelled)
                gate.open()
                #expect(await pollUntil { server.closedConnectionCount == 1 })
            }
        }
    }

    @Test func aTaskCancelledBeforeExecuteNeverConnects() async throws {
        try await LoopbackHTTPServer.withServer(handler: holdOpenHandler) { server in
            try await HTTPClient.withClient { client in
                let task = Task { () async throws -> Int in
                    withUnsafeCurrentTask { $0?.cancel() }
                    return try await client.execute(HTTPRequest(url: server.baseURL)).status
                }
                let result = await task.result
                #expect(httpErrorCode(result) == .cancelled)
                #expect(server.connectionCount == 0)
            }
        }
    }

    /// Requests and long-lived streams alike (the thread starts the two differently).
    @Test func shutdownAbortsTransfersInFlightAndRefusesNewOnes() async throws {
        try await LoopbackHTTPServer.withServer(handler: holdOpenHandler) { server in
            let client = HTTPClient()
            var responses: [HTTPResponse] = []
            for index in 0..<6 {
                let request = HTTPRequest(url: server.baseURL, isLongLived: index.isMultiple(of: 2))
                responses.append(try await client.execute(request))
            }
            let readers = responses.map { response in
                Task { () async throws -> Void in for try await _ in response.body {} }
            }
            await client.shutdown()
            for reader in readers {
                let result = await reader.result
                #expect(httpErrorCode(result) == .shutdown)
            }
            #expect(await pollUntil { server.closedConnectionCount == 6 })
            for isLongLived in [false, true] {
                await #expect(throws: HTTPError.self) {
                    try await client.execute(HTTPRequest(url: server.baseURL, isLongLived: isLongLived))
                }
            }
            await client.shutdown()
        }
    }
}
