import ResolveKitHTTP
import ResolveKitTesting
import Synchronization
import Testing

@Suite(.timeLimit(.minutes(1)))
struct HTTPClientStreamingTests {
    @Test func severalMegabytesDownloadIntact() async throws {
        let payload = patternBytes(count: 6 * 1024 * 1024)
        try await LoopbackHTTPServer.withServer(handler: { _ in LoopbackResponse(status: 200, body: .bytes(payload)) })
        {
            server in
            try await HTTPClient.withClient { client in
                let body = try await client.send(HTTPRequest(url: server.baseURL), maxBodyBytes: 8 * 1024 * 1024).body
                #expect(body.count == payload.count)
                #expect(sameBytes(body, payload))
            }
        }
    }

    @Test func severalMegabytesUploadIntact() async throws {
        let payload = patternBytes(count: 5 * 1024 * 1024, seed: 42)
        let echo: LoopbackHandler = { request in
            LoopbackResponse(status: 200, body: .bytes(request.body))
        }
        try await LoopbackHTTPServer.withServer(handler: echo) { server in
            try await HTTPClient.withClient { client in
                let response = try await client.send(
                    HTTPRequest(method: .post, url: server.baseURL, body: payload), maxBodyBytes: 8 * 1024 * 1024)
                #expect(sameBytes(response.body, payload))
            }
        }
    }

    @Test func executeReturnsBeforeTheBodyEndsAndChunksArriveAsWritten() async throws {
        let gate = Gate()
        let handler: LoopbackHandler = { _ in
            LoopbackResponse(
                status: 200,
                body: .stream { writer in
                    try await writer.write(Array("first".utf8))
                    await gate.wait()
                    try await writer.write(Array("second".utf8))
                })
        }
        try await LoopbackHTTPServer.withServer(handler: handler) { server in
            try await HTTPClient.withClient { client in
                let response = try await client.execute(HTTPRequest(url: server.baseURL))
                var iterator = response.body.makeAsyncIterator()
                #expect(try await iterator.next() == Array("first".utf8))
                gate.open()
                #expect(try await iterator.next() == Array("second".utf8))
                #expect(try await iterator.next() == nil)
            }
        }
    }

    @Test func aSlowReaderPausesTheTransferAndBufferingStaysBounded() async throws {
        let total = 64 * 1024 * 1024
        let chunk = patternBytes(count: 64 * 1024)
        let written = Mutex(0)
        let handler: LoopbackHandler = { _ in
            LoopbackResponse(
                status: 200,
                body: .stream { writer in
                    for _ in 0..<(total / chunk.count) {
                        try await writer.write(chunk)
                        written.withLock { $0 += chunk.count }
                    }
                })
        }
        let limit = 256 * 1024
        try await LoopbackHTTPServer.withServer(handler: handler) { server in
            try await HTTPClient.withClient { client in
                let response = try await client.execute(HTTPRequest(url: server.baseURL))
                var iterator = response.body.makeAsyncIterator()
                let first = try await iterator.next() ?? []
                #expect(await pollUntil { response.body.isPaused })
                #expect(response.body.bufferedByteCount >= limit)
                #expect(response.body.bufferedByteCount <= limit + 64 * 1024)
                #expect(written.withLock { $0 } < total)
                var intact = continuesRepeating(chunk, at: 0, first)
                var count = first.count
                while let next = try await iterator.next() {
                    intact = intact && continuesRepeating(chunk, at: count, next)
                    count += next.count
                }
                #expect(count == total)
                #expect(intact)
                #expect(response.body.maxBufferedByteCount <= limit + 64 * 1024)
            }
        }
    }

    @Test func fiftyConcurrentStreamsShareOneClient() async throws {
        let handler: LoopbackHandler = { request in
            LoopbackResponse(
                status: 200,
                body: .stream { writer in
                    for index in 0..<20 { try await writer.write(Array("\(request.path):\(index);".utf8)) }
                })
        }
        try await LoopbackHTTPServer.withServer(handler: handler) { server in
            try await HTTPClient.withClient { client in
                try await withThrowingTaskGroup(of: Bool.self) { group in
                    for stream in 0..<50 {
                        group.addTask {
                            let response = try await client.execute(HTTPRequest(url: server.baseURL + "/s\(stream)"))
                            let body = try await response.body.collect(upTo: 4096)
                            let expected = (0..<20).map { "/s\(stream):\($0);" }.joined()
                            return String(decoding: body, as: UTF8.self) == expected
                        }
                    }
                    var correct = 0
                    for try await ok in group where ok { correct += 1 }
                    #expect(correct == 50)
                }
                #expect(server.requestCount == 50)
            }
        }
    }
}
