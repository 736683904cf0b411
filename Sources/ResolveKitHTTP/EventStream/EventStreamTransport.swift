/// How ``EventStream`` opens HTTP connections: the seam between stream logic and the HTTP client.
///
/// The live value wraps the libcurl client; tests use a scripted in-memory value. `connect` returns once the
/// response head has arrived (or throws when the connection could not be made).
public struct EventStreamTransport: Sendable {
    /// Opens one `GET` request and returns the response.
    public var connect: @Sendable (EventStreamRequest) async throws -> EventStreamConnection

    /// Creates a transport.
    ///
    /// - Parameter connect: Opens a request; throws for transport errors (DNS, TCP, TLS, timeouts).
    public init(connect: @escaping @Sendable (EventStreamRequest) async throws -> EventStreamConnection) {
        self.connect = connect
    }
}

/// One event stream request: the full URL (cursor included) and the header fields to send.
public struct EventStreamRequest: Sendable {
    /// The absolute URL, e.g. `https://host/v1/sessions/ID/events?cursor=1795312329875-0`.
    public var url: String
    /// The header fields, in order.
    public var headers: [(name: String, value: String)]
    /// Fired when the stream gives up waiting for this request's response head (its idle timeout passed): a
    /// transport gives up the connection under it too, as ``EventStreamConnection/abortStalled`` does for an open
    /// stream.
    public var stallSignal: StallSignal

    /// Creates a request.
    ///
    /// - Parameters:
    ///   - url: The absolute URL.
    ///   - headers: The header fields.
    ///   - stallSignal: Fired when the stream gives up waiting for the response head.
    public init(url: String, headers: [(name: String, value: String)], stallSignal: StallSignal = StallSignal()) {
        self.url = url
        self.headers = headers
        self.stallSignal = stallSignal
    }
}

/// An open response: its status, and either its error body or its streaming body.
public struct EventStreamConnection: Sendable {
    /// The HTTP status code.
    public var status: Int
    /// For a non-2xx status, the response body as far as the transport read it (bounded); otherwise empty.
    public var body: [UInt8]
    /// For a 2xx status, the body's bytes as they arrive. Finishing is a clean end of stream; throwing is a broken
    /// connection. Iteration must end promptly when the iterating task is cancelled.
    public var chunks: AsyncThrowingStream<[UInt8], any Error>
    /// Aborts the transfer so that `chunks` finishes soon; called on every exit path, possibly more than once.
    public var cancel: @Sendable () -> Void
    /// Aborts the transfer because nothing arrived within the idle timeout, and gives up the connection under it:
    /// a connection that stopped forwarding (a proxy or NAT that dropped the flow) must not carry the reconnect,
    /// which over HTTP/2 it would, shared by every request to the server.
    public var abortStalled: @Sendable () -> Void

    /// Creates a connection.
    ///
    /// - Parameters:
    ///   - status: The HTTP status code.
    ///   - body: The error body for non-2xx statuses.
    ///   - chunks: The streaming body for 2xx statuses.
    ///   - cancel: Aborts the transfer; must be idempotent.
    ///   - abortStalled: Aborts the transfer and gives up its connection; `cancel` when not given.
    public init(
        status: Int, body: [UInt8] = [], chunks: AsyncThrowingStream<[UInt8], any Error>,
        cancel: @escaping @Sendable () -> Void, abortStalled: (@Sendable () -> Void)? = nil
    ) {
        self.status = status
        self.body = body
        self.chunks = chunks
        self.cancel = cancel
        self.abortStalled = abortStalled ?? cancel
    }
}
