import Glibc

/// Opening a non-blocking stream socket to a Redis address, on the connection's own thread.
///
/// Name resolution (`getaddrinfo`) and the connect wait happen on the connection's thread, never on a thread of
/// the cooperative pool; the wait also watches the connection's wake-up pipe, so closing the connection (its
/// connect timeout passed) stops it at once.
enum RedisSocket {
    /// Connects to `address`, trying each resolved address in turn.
    ///
    /// - Parameter wake: A descriptor that becomes readable when the attempt must stop.
    /// - Returns: A connected, non-blocking, close-on-exec socket, or why none could be had.
    static func connect(_ address: RedisURL.Address, wake: Int32) -> Result<Int32, RedisError> {
        switch address {
        case .unix(let path):
            return connectUnix(path, wake: wake)
        case .tcp(let host, let port):
            return connectTCP(host: host, port: port, wake: wake)
        }
    }

    private static func connectTCP(host: String, port: Int, wake: Int32) -> Result<Int32, RedisError> {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let list else {
            let reason = String(cString: gai_strerror(status))
            return .failure(RedisError(.connectFailed, "Cannot resolve the Redis host \(host): \(reason)"))
        }
        defer { freeaddrinfo(list) }
        var lastError = RedisError(.connectFailed, "The Redis host \(host) resolved to no address")
        var entry: UnsafeMutablePointer<addrinfo>? = list
        while let current = entry {
            entry = current.pointee.ai_next
            let info = current.pointee
            let result = attempt(family: info.ai_family, address: info.ai_addr, length: info.ai_addrlen, wake: wake)
            switch result {
            case .success(let fd):
                var one: Int32 = 1
                setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
                return .success(fd)
            case .failure(let error):
                if error.code == .closed { return result }
                lastError = error
                lastError.message += " (\(host):\(port))"
            }
        }
        return .failure(lastError)
    }

    private static func connectUnix(_ path: String, wake: Int32) -> Result<Int32, RedisError> {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            return .failure(RedisError(.invalidURL, "The Unix socket path is longer than 107 bytes: \(path)"))
        }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        let length = socklen_t(MemoryLayout<sockaddr_un>.size)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                attempt(family: AF_UNIX, address: $0, length: length, wake: wake)
            }
        }
        return result.mapError { error in
            var error = error
            error.message += " (\(path))"
            return error
        }
    }

    /// One non-blocking connect, waited for with `poll` beside the wake-up descriptor.
    private static func attempt(
        family: Int32, address: UnsafePointer<sockaddr>?, length: socklen_t, wake: Int32
    ) -> Result<Int32, RedisError> {
        let fd = socket(family, Int32(SOCK_STREAM.rawValue | SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return .failure(RedisError(.connectFailed, "socket() failed", errno: errno)) }
        if Glibc.connect(fd, address, length) == 0 { return .success(fd) }
        var code = errno
        if code == EINPROGRESS || code == EAGAIN {
            var fds = [
                pollfd(fd: fd, events: Int16(POLLOUT), revents: 0), pollfd(fd: wake, events: Int16(POLLIN), revents: 0),
            ]
            while poll(&fds, 2, -1) < 0, errno == EINTR {}
            if fds[1].revents != 0 {
                close(fd)
                return .failure(RedisError(.closed, "The connection was closed while connecting"))
            }
            var error: Int32 = 0
            var size = socklen_t(MemoryLayout<Int32>.size)
            getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &size)
            if error == 0 { return .success(fd) }
            code = error
        }
        close(fd)
        return .failure(failure(code))
    }

    private static func failure(_ code: Int32) -> RedisError {
        switch code {
        case ECONNREFUSED, ENOENT:
            return RedisError(
                .connectRefused, "Nothing listens at the Redis address; is redis-server running there?", errno: code)
        default:
            return RedisError(
                .connectFailed, "Cannot connect to Redis: \(String(cString: strerror(code)))", errno: code)
        }
    }
}
