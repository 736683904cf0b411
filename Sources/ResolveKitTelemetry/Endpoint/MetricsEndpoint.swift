import Glibc
import ResolveKitCore
import Synchronization

/// The number of requests answered, shared by the endpoint and its thread (which holds no reference to the
/// endpoint, so that dropping the endpoint stops it).
final class ServedCount: Sendable {
    private let count = Atomic<Int>(0)

    var value: Int { count.load(ordering: .relaxed) }

    func increment() {
        count.wrappingAdd(1, ordering: .relaxed)
    }
}

/// A tiny HTTP server on a thread of its own that answers `GET /metrics` with a registry's text (OpenMetrics when
/// the scraper's `Accept` asks for it) and 404 to anything else. It listens on loopback unless told otherwise.
///
/// One request per connection; a request head over 8 KiB gets 431, a client that sends no complete head within the
/// request timeout is disconnected, at most 64 connections are served at once.
///
/// ```swift
/// let endpoint = try MetricsEndpoint.start(listen: "127.0.0.1:9464", registry: registry)
/// defer { endpoint.stop() }
/// ```
public final class MetricsEndpoint: Sendable {
    /// The endpoint's limits.
    public struct Limits: Sendable, Hashable {
        /// The largest request head read (8 KiB).
        public var maxRequestHeadBytes: Int
        /// How long a connection may take to send its request and read the answer (5 s).
        public var requestTimeout: Duration
        /// Connections served at once (64); more wait in the kernel's backlog.
        public var maxConnections: Int

        /// Creates limits.
        public init(
            maxRequestHeadBytes: Int = 8 * 1024, requestTimeout: Duration = .seconds(5), maxConnections: Int = 64
        ) {
            self.maxRequestHeadBytes = maxRequestHeadBytes
            self.requestTimeout = requestTimeout
            self.maxConnections = maxConnections
        }
    }

    /// The address it listens on, e.g. `127.0.0.1:9464` (with the port the kernel chose for port 0).
    public let address: String
    /// The port it listens on.
    public let port: Int
    private let listenFD: Int32
    private let wakeFDs: (read: Int32, write: Int32)
    private let thread: Mutex<SystemThread?>
    private let served = ServedCount()

    private init(address: String, port: Int, listenFD: Int32, wakeFDs: (Int32, Int32)) {
        self.address = address
        self.port = port
        self.listenFD = listenFD
        self.wakeFDs = wakeFDs
        self.thread = Mutex(nil)
    }

    /// Starts serving `registry`.
    /// - Parameters:
    ///   - listen: `host:port` with a numeric host (`127.0.0.1:9464`, `[::1]:9464`, `0.0.0.0:9464` to expose it
    ///     beyond this machine); port 0 lets the kernel choose.
    ///   - registry: What `/metrics` shows.
    ///   - limits: Request size and time limits.
    /// - Throws: ``TelemetryError``: `invalid_configuration` for an address that is not `host:port` with a numeric
    ///   host, `socket_failed` when it cannot be bound (in use, not allowed).
    public static func start(
        listen: String = "127.0.0.1:9464", registry: MetricsRegistry, limits: Limits = Limits()
    ) throws(TelemetryError) -> MetricsEndpoint {
        let address = try parse(listen)
        let fd = socket(address.family, Int32(SOCK_STREAM.rawValue | SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw TelemetryError(.socketFailed, "socket() failed", errno: errno) }
        var reuse: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        guard address.withSockaddr({ bind(fd, $0, $1) }) == 0, Glibc.listen(fd, 64) == 0 else {
            let code = errno
            close(fd)
            throw TelemetryError(.socketFailed, "the metrics endpoint cannot listen on \(address)", errno: code)
        }
        var pipeFDs: [Int32] = [0, 0]
        guard pipe(&pipeFDs) == 0 else {
            let code = errno
            close(fd)
            throw TelemetryError(.socketFailed, "pipe failed", errno: code)
        }
        pipeFDs.forEach(SocketOptions.makeNonBlockingAndCloseOnExec)
        let bound = SocketAddress.local(of: fd) ?? address
        let endpoint = MetricsEndpoint(
            address: bound.description, port: bound.port, listenFD: fd, wakeFDs: (pipeFDs[0], pipeFDs[1]))
        let loop = MetricsEndpointLoop(
            listenFD: fd, wakeFD: pipeFDs[0], registry: registry, limits: limits, served: endpoint.served)
        do throws(SystemThread.StartFailure) {
            let thread = try SystemThread(name: "rk-metrics") { loop.run() }
            endpoint.thread.withLock { $0 = thread }
        } catch {
            close(fd)
            close(pipeFDs[0])
            close(pipeFDs[1])
            throw TelemetryError(.socketFailed, "the metrics endpoint's thread could not start", errno: error.errno)
        }
        return endpoint
    }

    /// How many requests have been answered.
    public var requestCount: Int { served.value }

    /// Stops listening, closes every connection and waits for the thread to end; dropping the endpoint does it too.
    /// Calling it again does nothing.
    public func stop() {
        guard
            let thread = self.thread.withLock({ state -> SystemThread? in
                defer { state = nil }
                return state
            })
        else { return }
        var byte: UInt8 = 1
        _ = write(wakeFDs.write, &byte, 1)
        thread.join()
        close(listenFD)
        close(wakeFDs.read)
        close(wakeFDs.write)
    }

    deinit { stop() }

    /// Checks a listen address without binding it, as a command line is validated before anything starts.
    /// - Throws: ``TelemetryError/Code/invalidConfiguration`` when it is not `host:port` with a numeric host.
    public static func validate(listen: String) throws(TelemetryError) {
        _ = try parse(listen)
    }

    /// `host:port` with a numeric host (IPv6 in brackets); a bare `:port` means loopback.
    static func parse(_ text: String) throws(TelemetryError) -> SocketAddress {
        let invalid = TelemetryError(
            .invalidConfiguration,
            "\"\(text)\" is not host:port with a numeric host, e.g. 127.0.0.1:9464 or [::1]:9464")
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]),
            (0...65535).contains(port)
        else { throw invalid }
        var host = String(text[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        if host.isEmpty { host = "127.0.0.1" }
        guard let address = SocketAddress(numericHost: host, port: port) else { throw invalid }
        return address
    }
}
