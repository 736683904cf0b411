import Glibc
import Synchronization

/// A small HTTP/1.1 server on 127.0.0.1 for tests: real sockets, a kernel-chosen port, keep-alive, chunked request
/// and response bodies, concurrent connections (one task each), and counters that let a test see what the client did.
///
/// Prefer ``withServer(limits:isolation:handler:_:)``, which stops the server on every exit path.
public final class LoopbackHTTPServer: Sendable {
    /// The port the kernel chose.
    public let port: Int
    private let listenFD: Int32
    private let poller: LoopbackPoller
    private let registry: LoopbackConnectionRegistry

    /// `http://127.0.0.1:PORT`, without a trailing slash.
    public var baseURL: String { "http://127.0.0.1:\(port)" }

    /// Starts a server that answers every request with `handler`.
    /// - Parameters:
    ///   - port: the port on 127.0.0.1 to listen on; 0 (the default) picks a free ephemeral port.
    ///   - limits: request size limits; oversize heads get 431, malformed requests 400.
    /// - Throws: ``LoopbackServerError`` when the socket cannot be created, bound or listened on.
    public static func start(
        port: Int = 0, limits: LoopbackRequestLimits = LoopbackRequestLimits(), handler: @escaping LoopbackHandler
    ) throws -> LoopbackHTTPServer {
        let fd = try listeningSocket(port: port)
        let registry = LoopbackConnectionRegistry(handler: handler, limits: limits.parserLimits)
        do {
            let port = try boundPort(fd)
            let poller = try LoopbackPoller.start(listenFD: fd) { client, poller in
                registry.accept(client, poller: poller)
            }
            return LoopbackHTTPServer(port: port, listenFD: fd, poller: poller, registry: registry)
        } catch {
            close(fd)
            throw error
        }
    }

    /// Starts a server, runs `body` with it, and stops it afterwards, also when `body` throws.
    public static func withServer<R>(
        limits: LoopbackRequestLimits = LoopbackRequestLimits(), isolation: isolated (any Actor)? = #isolation,
        handler: @escaping LoopbackHandler, _ body: (LoopbackHTTPServer) async throws -> R
    ) async throws -> R {
        let server = try start(limits: limits, handler: handler)
        do {
            let result = try await body(server)
            await server.stop()
            return result
        } catch {
            await server.stop()
            throw error
        }
    }

    private init(port: Int, listenFD: Int32, poller: LoopbackPoller, registry: LoopbackConnectionRegistry) {
        self.port = port
        self.listenFD = listenFD
        self.poller = poller
        self.registry = registry
    }

    /// Closes the listener and every connection, cancelling running handlers, and waits for them to finish.
    /// Calling it again does nothing.
    public func stop() async {
        guard await registry.stopAll() else { return }
        await poller.stop()
        close(listenFD)
    }

    /// How many connections the server has accepted so far.
    public var connectionCount: Int { registry.counters.accepted }

    /// How many connections have ended so far, whoever closed them.
    public var closedConnectionCount: Int { registry.counters.closed }

    /// How many complete requests the server has received so far.
    public var requestCount: Int { registry.counters.requests }

    private static func listeningSocket(port: Int) throws(LoopbackServerError) -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue | SOCK_NONBLOCK.rawValue), 0)
        guard fd >= 0 else { throw LoopbackServerError(code: .resourceFailed, message: "socket failed", errno: errno) }
        if port != 0 {
            // A fixed port is for a long-running dev server: allow rebinding right after a restart (TIME_WAIT).
            var reuse: Int32 = 1
            setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(clamping: port)).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(fd, 128) == 0 else {
            let code = errno
            close(fd)
            throw LoopbackServerError(code: .bindFailed, message: "bind or listen on 127.0.0.1 failed", errno: code)
        }
        return fd
    }

    private static func boundPort(_ fd: Int32) throws(LoopbackServerError) -> Int {
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let result = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard result == 0 else {
            throw LoopbackServerError(code: .bindFailed, message: "getsockname failed", errno: errno)
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
