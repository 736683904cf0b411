import Glibc
import Synchronization

/// Requests on a Unix stream socket: any number of connections, each a sequence of request lines answered on the
/// same connection. The socket file is created with mode 0600 and removed on ``stop()``.
final class UnixSocketSource: RequestSource {
    /// The socket could not be set up.
    struct SetupError: Error, CustomStringConvertible {
        var description: String
    }

    let lines: AsyncStream<IncomingLine>
    let summary: String
    private let continuation: AsyncStream<IncomingLine>.Continuation
    private let path: String
    private let listenFD: Int32
    private let connections = Mutex<(stopped: Bool, nextID: Int, open: [Int: ReplySink])>((false, 0, [:]))

    /// Binds and listens on `path`, replacing a stale socket file left by an earlier process.
    /// - Throws: ``SetupError`` with the failing call and `errno` text.
    init(path: String) throws(SetupError) {
        self.path = path
        summary = "socket " + path
        (lines, continuation) = AsyncStream.makeStream(of: IncomingLine.self)
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw Self.failure("socket") }
        var status = stat()
        if lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFSOCK { unlink(path) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: Array(path.utf8).prefix(raw.count - 1))
        }
        let previousMask = umask(0o177)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        umask(previousMask)
        guard bound == 0 else {
            let error = Self.failure("bind \(path)")
            close(fd)
            throw error
        }
        guard listen(fd, 16) == 0 else {
            let error = Self.failure("listen")
            close(fd)
            throw error
        }
        listenFD = fd
    }

    func start() {
        LineReading.detach("rk-service accept") { [self] in acceptLoop() }
    }

    /// Stops accepting and reading: the listener is shut down and each connection's read side closed, so its
    /// reader ends; answers to requests already read are still written before the connection closes.
    func stop() {
        let open = connections.withLock { state -> [ReplySink] in
            guard !state.stopped else { return [] }
            state.stopped = true
            return Array(state.open.values)
        }
        _ = shutdown(listenFD, Int32(SHUT_RDWR))
        for sink in open { sink.shutdownReading() }
        unlink(path)
        continuation.finish()
    }

    private func acceptLoop() {
        while true {
            let client = accept(listenFD, nil, nil)
            if client < 0 {
                if errno == EINTR || errno == ECONNABORTED { continue }
                break
            }
            _ = fcntl(client, F_SETFD, FD_CLOEXEC)
            let sink = ReplySink(fd: client, ownsDescriptor: true)
            let id = connections.withLock { state -> Int? in
                guard !state.stopped else { return nil }
                state.nextID += 1
                state.open[state.nextID] = sink
                return state.nextID
            }
            guard let id else {
                sink.finishReading()
                break
            }
            let continuation = continuation
            LineReading.detach("rk-service connection \(id)") { [self] in
                LineReading.read(fd: client, reply: sink, peer: PeerCredentials(socket: client), into: continuation)
                _ = connections.withLock { $0.open.removeValue(forKey: id) }
            }
        }
        close(listenFD)
    }

    private static func failure(_ call: String) -> SetupError {
        SetupError(description: "\(call) failed: \(String(cString: strerror(errno)))")
    }
}
