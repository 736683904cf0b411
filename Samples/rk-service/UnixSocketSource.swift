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
    /// The socket file this process made, so ``stop()`` removes only that one, not one made since in its place.
    private let boundFile: FileIdentity?
    private let connections = Mutex<(stopped: Bool, nextID: Int, open: [Int: ReplySink])>((false, 0, [:]))

    /// Binds and listens on `path`, replacing a stale socket file left by an earlier process; a socket another
    /// process still serves is left alone, as is any other kind of file.
    /// - Throws: ``SetupError`` saying what is wrong with the path.
    init(path: String) throws(SetupError) {
        self.path = path
        summary = "socket " + path
        (lines, continuation) = AsyncStream.makeStream(of: IncomingLine.self)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let longest = MemoryLayout.size(ofValue: address.sun_path) - 1
        guard path.utf8.count <= longest else {
            throw SetupError(description: "the path is longer than a socket's \(longest) bytes")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in raw.copyBytes(from: Array(path.utf8)) }
        try Self.removeStaleSocket(path, address: address)
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw Self.failure("socket") }
        let previousMask = umask(0o177)
        let bound = Self.withSocketAddress(address) { bind(fd, $0, $1) }
        umask(previousMask)
        guard bound == 0, listen(fd, 16) == 0 else {
            let error = Self.failure(bound == 0 ? "listen" : "bind")
            close(fd)
            throw error
        }
        listenFD = fd
        boundFile = Self.identity(path)
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
        if let boundFile, Self.identity(path) == boundFile { unlink(path) }
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

    /// A file's device and inode.
    struct FileIdentity: Equatable, Sendable {
        var device: UInt
        var inode: UInt
    }

    private static func identity(_ path: String) -> FileIdentity? {
        var status = stat()
        guard lstat(path, &status) == 0 else { return nil }
        return FileIdentity(device: UInt(status.st_dev), inode: UInt(status.st_ino))
    }

    /// Removes a socket file nobody answers on (its process ended without removing it). Refuses a socket that
    /// accepts a connection (another process serves it: taking its path would cut its clients off) and a path
    /// that is not a socket.
    private static func removeStaleSocket(_ path: String, address: sockaddr_un) throws(SetupError) {
        var status = stat()
        guard lstat(path, &status) == 0 else { return }
        guard status.st_mode & S_IFMT == S_IFSOCK else {
            throw SetupError(description: "the path exists and is not a socket")
        }
        // Non-blocking: a listener that does not accept (its backlog full, its process stopped) must not hold the
        // start; it still has the socket (EAGAIN).
        let probe = socket(
            AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard probe >= 0 else { throw failure("socket") }
        defer { close(probe) }
        if withSocketAddress(address, { connect(probe, $0, $1) }) == 0 || errno == EAGAIN {
            throw SetupError(description: "another process is serving on it")
        }
        guard errno == ECONNREFUSED else { throw failure("connect") }
        unlink(path)
    }

    private static func withSocketAddress(
        _ address: sockaddr_un, _ body: (UnsafePointer<sockaddr>, socklen_t) -> Int32
    ) -> Int32 {
        withUnsafePointer(to: address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
    }
}
