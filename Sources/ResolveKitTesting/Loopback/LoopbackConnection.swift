/// Serves one accepted connection: reads requests (keep-alive, pipelined), calls the handler, writes responses.
struct LoopbackConnection: Sendable {
    /// The connection's socket.
    let socket: LoopbackSocket
    /// Answers each request.
    let handler: LoopbackHandler
    /// Size limits for requests.
    let limits: LoopbackRequestParser.Limits
    /// Called once per complete request, before the handler runs.
    let onRequest: @Sendable () -> Void

    /// Runs until the client closes, a response ends the connection, or the task is cancelled. Does not close the
    /// descriptor; the owner does.
    func run() async {
        var parser = LoopbackRequestParser(limits: limits)
        while !Task.isCancelled {
            switch parser.next() {
            case .needMore:
                do {
                    if parser.takeContinue() { try await socket.writeAll(Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)) }
                    let bytes = try await socket.read()
                    if bytes.isEmpty { return }
                    parser.append(bytes)
                } catch {
                    return
                }
            case .failure(let status, let reason):
                let head = Self.head(
                    status: status, reason: reason, headers: [], framing: "Content-Length: 0", keepAlive: false)
                try? await socket.writeAll(head)
                return
            case .request(let method, let target, let headers, let body, let keepAlive):
                onRequest()
                let request = LoopbackRequest(
                    method: method, target: target, headers: headers.map { ($0.name, $0.value) }, body: body)
                let response = await handler(request)
                let reusable = await respond(response, isHead: method == "HEAD", keepAlive: keepAlive)
                guard reusable, keepAlive else { return }
            }
        }
    }

    /// Writes `response`; returns whether the connection may carry another request.
    private func respond(_ response: LoopbackResponse, isHead: Bool, keepAlive: Bool) async -> Bool {
        let reason = Self.reasonPhrase(response.status)
        switch response.body {
        case .bytes(let bytes):
            var data = Self.head(
                status: response.status, reason: reason, headers: response.headers,
                framing: "Content-Length: \(bytes.count)", keepAlive: keepAlive)
            if !isHead { data.append(contentsOf: bytes) }
            do {
                try await socket.writeAll(data)
                return true
            } catch {
                return false
            }
        case .stream(let produce):
            let head = Self.head(
                status: response.status, reason: reason, headers: response.headers,
                framing: "Transfer-Encoding: chunked", keepAlive: keepAlive)
            do {
                try await socket.writeAll(head)
            } catch {
                return false
            }
            return await stream(produce)
        }
    }

    /// Runs a streaming producer while watching for the client to go away (then the producer's task is cancelled);
    /// ends the body cleanly if it can.
    private func stream(_ produce: @escaping @Sendable (any LoopbackBodyWriter) async throws -> Void) async -> Bool {
        enum Event: Sendable {
            case produced(Bool)
            case watched(clientGone: Bool)
        }
        let writer = LoopbackStreamWriter(socket: socket)
        let produced = await withTaskGroup(of: Event.self) { group -> Bool in
            group.addTask { [socket] in
                let gone = await socket.waitForPeerClose()
                if gone { writer.markClientGone() }
                return .watched(clientGone: gone)
            }
            group.addTask {
                do {
                    try await produce(writer)
                    return .produced(true)
                } catch {
                    return .produced(false)
                }
            }
            defer { group.cancelAll() }
            while let event = await group.next() {
                switch event {
                case .produced(let success): return success
                case .watched(clientGone: true): group.cancelAll()
                case .watched(clientGone: false): continue
                }
            }
            return false
        }
        guard produced, !writer.isAborted, !writer.isClientGone else { return false }
        do {
            try await socket.writeAll(Array("0\r\n\r\n".utf8))
            return true
        } catch {
            return false
        }
    }

    static func head(
        status: Int, reason: String, headers: [(name: String, value: String)], framing: String, keepAlive: Bool
    ) -> [UInt8] {
        let reserved: Set<String> = ["content-length", "transfer-encoding", "connection"]
        var text = "HTTP/1.1 \(status) \(reason)\r\n"
        for header in headers where !reserved.contains(header.name.lowercased()) {
            text += "\(header.name): \(header.value)\r\n"
        }
        text += "\(framing)\r\nConnection: \(keepAlive ? "keep-alive" : "close")\r\n\r\n"
        return Array(text.utf8)
    }

    static func reasonPhrase(_ status: Int) -> String {
        let phrases: [Int: String] = [
            100: "Continue", 200: "OK", 201: "Created", 202: "Accepted", 204: "No Content", 301: "Moved Permanently",
            302: "Found", 304: "Not Modified", 307: "Temporary Redirect", 400: "Bad Request", 401: "Unauthorized",
            403: "Forbidden", 404: "Not Found", 409: "Conflict", 410: "Gone", 413: "Content Too Large",
            422: "Unprocessable Content", 429: "Too Many Requests", 431: "Request Header Fields Too Large",
            500: "Internal Server Error", 502: "Bad Gateway", 503: "Service Unavailable", 504: "Gateway Timeout",
        ]
        return phrases[status] ?? "Status"
    }
}
