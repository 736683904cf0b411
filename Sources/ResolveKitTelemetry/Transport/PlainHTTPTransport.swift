import Synchronization

/// An ``OTLPTransport`` on plain sockets, for a process that must not link libcurl (`rk-mcp`): `http://` only
/// (a collector on the same host, e.g. `http://127.0.0.1:4318`), HTTP/1.1 with one kept-alive connection.
///
/// Requests run one at a time on a thread of their own at the kernel's idle priority, so the blocking socket work
/// never occupies a thread of the Swift concurrency pool nor takes a core a tool call wants (an urgent one, a flush
/// or the last export at shutdown, on a second thread at normal priority); every wait (connect, send, answer)
/// counts against the request's timeout, and a cancelled request stops within 50 ms of its thread getting a core.
public final class PlainHTTPTransport: OTLPTransport {
    private struct State {
        var idle: (connection: PlainHTTPConnection, endpoint: EndpointURL)?
        var isShutDown = false
    }

    private let thread = IdleThread(name: "rk-otlp-send")
    /// The idle connection is only taken and put back by `thread`'s jobs; one taken by one thread is not there for
    /// the other, which opens its own.
    private let state = Mutex(State())

    /// Creates a transport for `endpoints` (the traces and metrics URLs it will post to).
    /// - Throws: ``TelemetryError/Code/unsupportedEndpoint`` for an `https://` endpoint (this transport speaks no
    ///   TLS: post to a collector on loopback that forwards over TLS), ``TelemetryError/Code/invalidConfiguration``
    ///   for a malformed one.
    public init(endpoints: [String] = []) throws(TelemetryError) {
        for endpoint in endpoints { _ = try Self.plainEndpoint(endpoint) }
    }

    /// Posts the request and reads the answer; any status is a result.
    /// - Throws: ``TelemetryError``: `unsupported_endpoint` (also for a gRPC call), `connect_failed`, `timed_out`,
    ///   `protocol_error`, `shutdown`.
    public func send(_ request: OTLPRequest) async throws(TelemetryError) -> OTLPResponse {
        guard !request.isGRPC else {
            throw TelemetryError(
                .unsupportedEndpoint,
                "OTLP over gRPC needs HTTP/2, which this transport does not speak: use http/protobuf (port 4318)")
        }
        let endpoint = try Self.plainEndpoint(request.url)
        let cancelled = CancelFlag()
        let result: Result<OTLPResponse, TelemetryError> = await withTaskCancellationHandler {
            await thread.run(urgently: request.isUrgent) {
                Result { () throws(TelemetryError) -> OTLPResponse in
                    try self.exchange(request, endpoint: endpoint, cancelled: cancelled)
                }
            }
        } onCancel: {
            cancelled.set()
        }
        return try result.get()
    }

    /// Closes the idle connection; later sends fail with `shutdown`.
    public func shutdown() async {
        state.withLock { state in
            state.isShutDown = true
            state.idle = nil
        }
    }

    /// Runs on `thread`: sends on the idle connection when there is one to the same endpoint (once more on a fresh
    /// connection if the server had closed it), else on a new one.
    private func exchange(
        _ request: OTLPRequest, endpoint: EndpointURL, cancelled: CancelFlag
    ) throws(TelemetryError) -> OTLPResponse {
        let deadline = ContinuousClock.now.advanced(by: request.timeout)
        let reused = try state.withLock { state throws(TelemetryError) -> PlainHTTPConnection? in
            guard !state.isShutDown else { throw TelemetryError(.shutdown, "the OTLP transport was shut down") }
            defer { state.idle = nil }
            guard let idle = state.idle, idle.endpoint == endpoint, !idle.connection.isClosedByPeer else { return nil }
            return idle.connection
        }
        if let reused {
            do {
                return try exchange(request, on: reused, endpoint: endpoint, deadline: deadline, cancelled: cancelled)
            } catch  where error.code == .protocolError {
                // The server closed the kept-alive connection as the request went out: once more on a new one.
            }
        }
        let connection = try PlainHTTPConnection.open(to: endpoint, deadline: deadline, cancelled: cancelled)
        return try exchange(request, on: connection, endpoint: endpoint, deadline: deadline, cancelled: cancelled)
    }

    private func exchange(
        _ request: OTLPRequest, on connection: PlainHTTPConnection, endpoint: EndpointURL,
        deadline: ContinuousClock.Instant, cancelled: CancelFlag
    ) throws(TelemetryError) -> OTLPResponse {
        var head = "POST \(endpoint.target) HTTP/1.1\r\nHost: \(connection.authority)\r\n"
        for field in request.headers where !field.name.contains(where: { $0 == "\r" || $0 == "\n" }) {
            head += "\(field.name): \(field.value.filter { $0 != "\r" && $0 != "\n" })\r\n"
        }
        head += "Content-Length: \(request.body.count)\r\n\r\n"
        try connection.writeAll(Array(head.utf8) + request.body, deadline: deadline, cancelled: cancelled)
        var reader = HTTPResponseReader()
        var output = HTTPResponseReader.Output.needMore
        while output == .needMore {
            let bytes = try connection.read(deadline: deadline, cancelled: cancelled)
            output = bytes.isEmpty ? reader.endOfInput() : reader.feed(bytes)
        }
        switch output {
        case .complete(let status, let retryAfter, let body, let keepAlive):
            if keepAlive {
                state.withLock { state in
                    if !state.isShutDown { state.idle = (connection, endpoint) }
                }
            }
            return OTLPResponse(status: status, retryAfter: retryAfter, body: body)
        case .failed(let reason):
            throw TelemetryError(.protocolError, "\(connection.authority) answered with broken HTTP: \(reason)")
        case .needMore:
            throw TelemetryError(.protocolError, "\(connection.authority) did not finish its answer")
        }
    }

    /// `url` parsed, when it is `http://`.
    static func plainEndpoint(_ url: String) throws(TelemetryError) -> EndpointURL {
        let endpoint = try EndpointURL(parsing: url)
        guard endpoint.scheme == "http" else {
            throw TelemetryError(
                .unsupportedEndpoint,
                "\(endpoint) is https://, which this OTLP transport (plain sockets, no libcurl) does not speak: "
                    + "send to a collector on this host over http:// (e.g. http://127.0.0.1:4318), which can "
                    + "forward over TLS")
        }
        return endpoint
    }
}
