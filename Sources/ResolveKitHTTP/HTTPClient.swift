import Synchronization

/// An HTTP client on libcurl's multi interface: one thread (`rk-http`, or `rk-http-idle` for a client whose
/// ``Configuration/isBackground`` is set) drives every transfer of the client, multiplexing HTTP/2 streams and reusing
/// connections; requests are awaited with async/await and bodies stream with back-pressure. The thread serves
/// long-lived responses (``HTTPRequest/isLongLived``) first, so a burst of requests does not hold up an event stream's
/// events.
///
/// Prefer ``withClient(configuration:isolation:_:)``, which shuts the client down on every exit path. A client
/// created with ``init(configuration:)`` must be shut down with ``shutdown()``; no transfer outlives it.
///
/// TLS certificates are always verified; trust, client certificates, pins, proxies and extra headers come with each
/// request's ``NetworkSettings`` (by default: the system CA store and the environment's `https_proxy`/`no_proxy`);
/// redirects are followed only when a request asks.
public final class HTTPClient: Sendable {
    /// The options of ``HTTPClient``.
    public struct Configuration: Sendable {
        /// How many body bytes may wait for a slow reader before the transfer is paused (per response).
        public var maxBufferedBodyBytes: Int
        /// The `User-Agent` header; `nil` sends none.
        public var userAgent: String?
        /// How many idle connections the client keeps for reuse; `0` keeps libcurl's default.
        public var maxCachedConnections: Int
        /// Whether the client's thread runs at the kernel's idle priority (`SCHED_IDLE`), for traffic that must never
        /// take a core from the rest of the process, such as exporting telemetry: on a busy machine its transfers
        /// wait for a core nothing else wants. Only tasks of that traffic should wait on such a client: its thread
        /// can be set aside for a while between two steps of a transfer.
        public var isBackground: Bool

        /// Creates a configuration; by default 256 KiB of buffered body per response, at the process's priority.
        public init(
            maxBufferedBodyBytes: Int = 256 * 1024, userAgent: String? = "resolvekit-linux",
            maxCachedConnections: Int = 0, isBackground: Bool = false
        ) {
            self.maxBufferedBodyBytes = maxBufferedBodyBytes
            self.userAgent = userAgent
            self.maxCachedConnections = maxCachedConnections
            self.isBackground = isBackground
        }
    }

    /// The client's options.
    public let configuration: Configuration
    private let loop: CurlLoop

    /// How many event-stream chunks the curl thread has handed to their readers' tasks that have not run yet: a
    /// burst of events waiting for a thread of the cooperative pool. Work that can wait may start behind them
    /// instead of ahead of them.
    public var streamChunksWaiting: Int { loop.streamChunksWaiting.load(ordering: .relaxed) }

    /// Creates a client. No thread starts until the first request.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        let threadName = configuration.isBackground ? "rk-http-idle" : "rk-http"
        self.loop = CurlLoop(configuration: configuration, threadName: threadName)
    }

    deinit {
        loop.requestStop()
    }

    /// Starts the client's thread now, at the calling thread's priority, instead of at the first request's: for a
    /// client whose requests come from code running at background priority but must not wait like it.
    package func startThread() {
        loop.start()
    }

    /// Creates a client, runs `body` with it, and shuts it down afterwards, also when `body` throws.
    public static func withClient<R>(
        configuration: Configuration = Configuration(), isolation: isolated (any Actor)? = #isolation,
        _ body: (HTTPClient) async throws -> R
    ) async throws -> R {
        let client = HTTPClient(configuration: configuration)
        do {
            let result = try await body(client)
            await client.shutdown()
            return result
        } catch {
            await client.shutdown()
            throw error
        }
    }

    /// Aborts every transfer still running (their awaiters get ``HTTPError/Code/shutdown``), stops the curl thread
    /// and waits for it. Calling it again does nothing; requests after it fail with `shutdown`.
    public func shutdown() async {
        await loop.stop()
    }

    /// Sends `request` and returns once the status line and headers have arrived; the body then streams.
    ///
    /// Any HTTP status is returned, not thrown. Cancelling the calling task aborts the transfer. The request's
    /// ``HTTPRequest/network`` settings are checked and their providers called first.
    /// - Throws: ``HTTPError`` for transport failures (connect, TLS with its cause, proxy, deadline, cancellation,
    ///   shutdown) and for network settings that cannot work (nothing is sent then).
    public func execute(_ request: HTTPRequest) async throws(HTTPError) -> HTTPResponse {
        var request = request
        let network = try await request.network.prepare(&request)
        let transfer = Transfer(
            id: loop.makeID(), request: request, network: network, loop: loop,
            maxBufferedBytes: configuration.maxBufferedBodyBytes)
        return try await transfer.execute()
    }

    /// Sends `request` and reads the whole body, for REST calls. Any HTTP status is a result; call
    /// ``HTTPCollectedResponse/requireSuccess()`` to make non-2xx an ``HTTPError/Code/httpStatus`` error.
    /// - Throws: ``HTTPError``: transport failures, or ``HTTPError/Code/bodyTooLarge`` past `maxBodyBytes`.
    public func send(_ request: HTTPRequest, maxBodyBytes: Int = 4 * 1024 * 1024) async throws(HTTPError)
        -> HTTPCollectedResponse
    {
        let response = try await execute(request)
        let body = try await response.body.collect(upTo: maxBodyBytes)
        return HTTPCollectedResponse(
            status: response.status, headers: response.headers, httpVersion: response.httpVersion, body: body)
    }
}
