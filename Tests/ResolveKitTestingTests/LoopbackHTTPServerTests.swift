import ResolveKitTesting
import Synchronization
import Testing

@Suite(.timeLimit(.minutes(1)))
struct LoopbackHTTPServerTests {
    static let echo: LoopbackHandler = { request in
        LoopbackResponse(
            status: 200, headers: [("X-Method", request.method), ("X-Path", request.path)], body: .bytes(request.body))
    }

    @Test func serverListensOnAKernelChosenLoopbackPort() async throws {
        try await LoopbackHTTPServer.withServer(handler: Self.echo) { server in
            #expect(server.port > 0)
            #expect(server.baseURL == "http://127.0.0.1:\(server.port)")
        }
    }

    @Test func severalRequestsShareOneKeptAliveConnection() async throws {
        try await LoopbackHTTPServer.withServer(handler: Self.echo) { server in
            let connection = try await RawHTTPConnection(port: server.port)
            for index in 0..<3 {
                try await connection.send("POST /item/\(index) HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello")
                let response = try await connection.readResponse()
                #expect(response.status == 200)
                #expect(response.header("X-Path") == "/item/\(index)")
                #expect(response.header("Connection") == "keep-alive")
                #expect(response.bodyText == "hello")
            }
            #expect(server.connectionCount == 1)
            #expect(server.requestCount == 3)
        }
    }

    @Test func pipelinedRequestsAreAnsweredInOrder() async throws {
        try await LoopbackHTTPServer.withServer(handler: Self.echo) { server in
            let connection = try await RawHTTPConnection(port: server.port)
            try await connection.send("GET /a HTTP/1.1\r\nHost: x\r\n\r\nGET /b HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try await connection.readResponse().header("X-Path") == "/a")
            #expect(try await connection.readResponse().header("X-Path") == "/b")
        }
    }

    @Test func chunkedRequestBodiesArriveDechunked() async throws {
        try await LoopbackHTTPServer.withServer(handler: Self.echo) { server in
            let connection = try await RawHTTPConnection(port: server.port)
            try await connection.send(
                "POST /c HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5;ext=1\r\nhello\r\n6\r\n world\r\n0\r\nX-Trailer: 1\r\n\r\n"
            )
            let response = try await connection.readResponse()
            #expect(response.bodyText == "hello world")
            try await connection.send("GET /after HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try await connection.readResponse().header("X-Path") == "/after")
        }
    }

    @Test func connectionCloseIsHonoured() async throws {
        try await LoopbackHTTPServer.withServer(handler: Self.echo) { server in
            let connection = try await RawHTTPConnection(port: server.port)
            try await connection.send("GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            let rest = try await connection.readToEnd()
            #expect(String(decoding: rest, as: UTF8.self).contains("Connection: close"))
            #expect(await pollUntil { server.closedConnectionCount == 1 })
        }
    }

    @Test(arguments: [
        ("GET / HTTP/1.1\r\nHost: x\r\nX-Big: \(String(repeating: "a", count: 20_000))\r\n\r\n", 431),
        ("GET / HTTP/1.1\r\n" + String(repeating: "X-H: 1\r\n", count: 150) + "\r\n", 431),
        ("NOT-HTTP\r\n\r\n", 400),
        ("GET / HTTP/1.1\r\nBad Header\r\n\r\n", 400),
        ("POST / HTTP/1.1\r\nContent-Length: 12x\r\n\r\n", 400),
        ("POST / HTTP/1.1\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n", 400),
        ("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", 400),
    ])
    func unacceptableRequestsGetAnErrorStatusAndAClosedConnection(request: String, status: Int) async throws {
        try await LoopbackHTTPServer.withServer(handler: Self.echo) { server in
            let connection = try await RawHTTPConnection(port: server.port)
            try await connection.send(request)
            let response = try await connection.readResponse()
            #expect(response.status == status)
            #expect(response.header("Connection") == "close")
            #expect(try await connection.readToEnd().isEmpty)
            #expect(server.requestCount == 0)
        }
    }

    @Test func streamedResponsesSendOneChunkPerWrite() async throws {
        let handler: LoopbackHandler = { _ in
            LoopbackResponse(
                status: 200, headers: [("Content-Type", "text/event-stream")],
                body: .stream { writer in
                    try await writer.write(Array("first".utf8))
                    try await writer.write(Array("second!".utf8))
                })
        }
        try await LoopbackHTTPServer.withServer(handler: handler) { server in
            let connection = try await RawHTTPConnection(port: server.port)
            try await connection.send("GET /events HTTP/1.1\r\nHost: x\r\n\r\n")
            let response = try await connection.readResponse()
            #expect(response.header("Transfer-Encoding") == "chunked")
            #expect(response.chunkSizes == [5, 7])
            #expect(response.bodyText == "firstsecond!")
        }
    }

    @Test func abortConnectionDropsTheStreamWithoutItsLastChunk() async throws {
        let handler: LoopbackHandler = { _ in
            LoopbackResponse(
                status: 200,
                body: .stream { writer in
                    try await writer.write(Array("partial".utf8))
                    await writer.abortConnection()
                })
        }
        try await LoopbackHTTPServer.withServer(handler: handler) { server in
            let connection = try await RawHTTPConnection(port: server.port)
            try await connection.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
            let text = String(decoding: try await connection.readToEnd(), as: UTF8.self)
            #expect(text.hasSuffix("7\r\npartial\r\n"))
            #expect(await pollUntil { server.closedConnectionCount == 1 })
        }
    }

    @Test func anIdleStreamNoticesTheClientClosing() async throws {
        let sawGone = Mutex(false)
        let handler: LoopbackHandler = { _ in
            LoopbackResponse(
                status: 200,
                body: .stream { writer in
                    try await writer.write(Array(": connected\n\n".utf8))
                    _ = await pollUntil(timeout: .seconds(10)) { writer.isClientGone }
                    sawGone.withLock { $0 = writer.isClientGone }
                    await #expect(throws: (any Error).self) { try await writer.write(Array("late".utf8)) }
                })
        }
        try await LoopbackHTTPServer.withServer(handler: handler) { server in
            let connection = try await RawHTTPConnection(port: server.port)
            try await connection.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
            _ = try await connection.read(until: "connected")
            connection.closeNow()
            #expect(await pollUntil { server.closedConnectionCount == 1 })
            #expect(sawGone.withLock { $0 })
        }
    }

    @Test func aWaitingStreamHandlerIsCancelledWhenTheClientLeaves() async throws {
        let cancelled = Mutex(false)
        let handler: LoopbackHandler = { _ in
            LoopbackResponse(
                status: 200,
                body: .stream { writer in
                    try await writer.write(Array(": connected\n\n".utf8))
                    do {
                        try await Task.sleep(for: .seconds(30))
                    } catch {
                        cancelled.withLock { $0 = true }
                    }
                })
        }
        try await LoopbackHTTPServer.withServer(handler: handler) { server in
            let connection = try await RawHTTPConnection(port: server.port)
            try await connection.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
            _ = try await connection.read(until: "connected")
            connection.closeNow()
            #expect(await pollUntil { server.closedConnectionCount == 1 })
            #expect(cancelled.withLock { $0 })
        }
    }

    @Test func connectionsAreServedConcurrently() async throws {
        let handler: LoopbackHandler = { request in
            LoopbackResponse(
                status: 200,
                body: .stream { writer in
                    try await writer.write(Array(request.path.utf8))
                    _ = await pollUntil(timeout: .seconds(10)) { writer.isClientGone }
                })
        }
        try await LoopbackHTTPServer.withServer(handler: handler) { server in
            var connections: [RawHTTPConnection] = []
            for index in 0..<8 {
                let connection = try await RawHTTPConnection(port: server.port)
                try await connection.send("GET /\(index) HTTP/1.1\r\nHost: x\r\n\r\n")
                connections.append(connection)
            }
            for (index, connection) in connections.enumerated() {
                #expect(try await connection.read(until: "/\(index)").hasSuffix("/\(index)\r\n"))
            }
            #expect(server.connectionCount == 8)
        }
    }

    @Test func stopEndsOpenStreamsAndClosesEveryConnection() async throws {
        let handler: LoopbackHandler = { _ in
            LoopbackResponse(
                status: 200,
                body: .stream { writer in
                    try await writer.write(Array("hi".utf8))
                    try await Task.sleep(for: .seconds(60))
                })
        }
        let server = try LoopbackHTTPServer.start(handler: handler)
        let connection = try await RawHTTPConnection(port: server.port)
        try await connection.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        _ = try await connection.read(until: "hi")
        await server.stop()
        #expect(server.closedConnectionCount == 1)
        #expect(try await connection.readToEnd().isEmpty)
        await server.stop()
    }
}
