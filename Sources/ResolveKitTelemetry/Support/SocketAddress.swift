import Glibc

/// An IPv4 or IPv6 socket address, for connecting and binding without Foundation.
struct SocketAddress: Sendable, CustomStringConvertible {
    private var storage: sockaddr_storage
    let length: socklen_t
    /// `AF_INET` or `AF_INET6`.
    let family: Int32

    /// The address of a numeric IPv4 or IPv6 host (no brackets), or `nil`.
    init?(numericHost host: String, port: Int) {
        var storage = sockaddr_storage()
        var v4 = in_addr()
        var v6 = in6_addr()
        if inet_pton(AF_INET, host, &v4) == 1 {
            withUnsafeMutableBytes(of: &storage) { raw in
                let address = raw.baseAddress!.assumingMemoryBound(to: sockaddr_in.self)
                address.pointee.sin_family = sa_family_t(AF_INET)
                address.pointee.sin_port = in_port_t(UInt16(clamping: port)).bigEndian
                address.pointee.sin_addr = v4
            }
            self.init(storage: storage, length: socklen_t(MemoryLayout<sockaddr_in>.size), family: AF_INET)
        } else if inet_pton(AF_INET6, host, &v6) == 1 {
            withUnsafeMutableBytes(of: &storage) { raw in
                let address = raw.baseAddress!.assumingMemoryBound(to: sockaddr_in6.self)
                address.pointee.sin6_family = sa_family_t(AF_INET6)
                address.pointee.sin6_port = in_port_t(UInt16(clamping: port)).bigEndian
                address.pointee.sin6_addr = v6
            }
            self.init(storage: storage, length: socklen_t(MemoryLayout<sockaddr_in6>.size), family: AF_INET6)
        } else {
            return nil
        }
    }

    private init(storage: sockaddr_storage, length: socklen_t, family: Int32) {
        self.storage = storage
        self.length = length
        self.family = family
    }

    /// The addresses `host` resolves to (a numeric host without a lookup), IPv4 first.
    /// - Throws: ``TelemetryError/Code/connectFailed`` when the name does not resolve.
    static func resolve(host: String, port: Int) throws(TelemetryError) -> [SocketAddress] {
        if let numeric = SocketAddress(numericHost: host, port: port) { return [numeric] }
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let list else {
            throw TelemetryError(
                .connectFailed, "the host \(host) does not resolve (\(String(cString: gai_strerror(status))))")
        }
        defer { freeaddrinfo(list) }
        var result: [SocketAddress] = []
        var entry: UnsafeMutablePointer<addrinfo>? = list
        while let current = entry {
            let info = current.pointee
            if let address = info.ai_addr, info.ai_family == AF_INET || info.ai_family == AF_INET6 {
                var storage = sockaddr_storage()
                withUnsafeMutableBytes(of: &storage) { raw in
                    raw.copyMemory(from: UnsafeRawBufferPointer(start: address, count: Int(info.ai_addrlen)))
                }
                result.append(SocketAddress(storage: storage, length: info.ai_addrlen, family: info.ai_family))
            }
            entry = info.ai_next
        }
        return result.sorted { $0.family == AF_INET && $1.family != AF_INET }
    }

    /// The address of a bound socket.
    static func local(of fd: Int32) -> SocketAddress? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let result = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard result == 0 else { return nil }
        return SocketAddress(storage: storage, length: length, family: Int32(storage.ss_family))
    }

    /// Runs `body` with the address as a `sockaddr` pointer.
    func withSockaddr<R>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> R) -> R {
        withUnsafeBytes(of: storage) { raw in body(raw.baseAddress!.assumingMemoryBound(to: sockaddr.self), length) }
    }

    /// The port.
    var port: Int {
        withUnsafeBytes(of: storage) { raw in
            family == AF_INET
                ? Int(UInt16(bigEndian: raw.load(as: sockaddr_in.self).sin_port))
                : Int(UInt16(bigEndian: raw.load(as: sockaddr_in6.self).sin6_port))
        }
    }

    /// The host as text, e.g. `127.0.0.1` or `::1`.
    var host: String {
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        withUnsafeBytes(of: storage) { raw in
            if family == AF_INET {
                var address = raw.load(as: sockaddr_in.self).sin_addr
                _ = inet_ntop(AF_INET, &address, &buffer, socklen_t(buffer.count))
            } else {
                var address = raw.load(as: sockaddr_in6.self).sin6_addr
                _ = inet_ntop(AF_INET6, &address, &buffer, socklen_t(buffer.count))
            }
        }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// `127.0.0.1:9464` or `[::1]:9464`.
    var description: String { family == AF_INET6 ? "[\(host)]:\(port)" : "\(host):\(port)" }

    /// Whether the address is a loopback one (127.0.0.0/8 or ::1).
    var isLoopback: Bool {
        withUnsafeBytes(of: storage) { raw in
            if family == AF_INET {
                return UInt32(bigEndian: raw.load(as: sockaddr_in.self).sin_addr.s_addr) >> 24 == 127
            }
            let bytes = withUnsafeBytes(of: raw.load(as: sockaddr_in6.self).sin6_addr) { Array($0) }
            return bytes == [UInt8](repeating: 0, count: 15) + [1]
        }
    }
}

/// Descriptor flags Glibc's Swift module offers no shortcut for (`accept4`, `pipe2` are GNU extensions).
enum SocketOptions {
    /// Sets `O_NONBLOCK` and `FD_CLOEXEC` on `fd`.
    static func makeNonBlockingAndCloseOnExec(_ fd: Int32) {
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        _ = fcntl(fd, F_SETFD, fcntl(fd, F_GETFD) | FD_CLOEXEC)
    }
}
