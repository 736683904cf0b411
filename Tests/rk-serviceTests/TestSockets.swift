import Foundation
import Glibc
import ResolveKitChildProcess

/// Unix sockets for tests: a stream client (the service's `--socket`) and a datagram receiver (`NOTIFY_SOCKET`).
/// Every blocking call is bounded by a receive timeout.
struct TestSocketError: Error, CustomStringConvertible {
    var description: String
}

/// `sockaddr_un` for a path, or for an abstract name when `name` starts with `@`; with its length.
func unixAddress(_ name: String) -> (sockaddr_un, socklen_t) {
    var bytes = Array(name.utf8)
    if bytes.first == UInt8(ascii: "@") { bytes[0] = 0 }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
    let offset = MemoryLayout<sockaddr_un>.offset(of: \.sun_path) ?? 2
    return (address, socklen_t(offset + bytes.count + (bytes[0] == 0 ? 0 : 1)))
}

private func withSockaddr<R>(_ name: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> R) -> R {
    var (address, length) = unixAddress(name)
    return withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, length) } }
}

private func setReceiveTimeout(_ fd: Int32, seconds: Int) {
    var timeout = timeval(tv_sec: seconds, tv_usec: 0)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
}

/// A connection to the service's request socket.
///
/// `@unchecked Sendable`: a test uses it from one task at a time; the buffer is only touched by `readLine`.
final class UnixStreamClient: @unchecked Sendable {
    private let fd: Int32
    private var buffer: [UInt8] = []

    init(path: String) throws {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw TestSocketError(description: "socket failed") }
        setReceiveTimeout(fd, seconds: 20)
        guard withSockaddr(path, { connect(fd, $0, $1) }) == 0 else {
            close(fd)
            throw TestSocketError(description: "connect \(path) failed: errno \(errno)")
        }
    }

    deinit { close(fd) }

    func send(_ line: String) {
        let bytes = Array((line + "\n").utf8)
        _ = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// The next line, or `nil` at end of stream or after the 20 s receive timeout.
    func readLine() -> String? {
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeSubrange(...newline)
                return line
            }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { return nil }
            buffer += chunk[..<count]
        }
    }
}

/// A bound datagram socket standing in for systemd's notification socket.
///
/// `@unchecked Sendable`: immutable after `init`; `recv` on one descriptor is thread-safe.
final class NotifySocketReceiver: @unchecked Sendable {
    let name: String
    private let fd: Int32

    /// Binds `name`: a path, or an abstract name starting with `@`.
    init(name: String) throws {
        self.name = name
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        guard fd >= 0 else { throw TestSocketError(description: "socket failed") }
        setReceiveTimeout(fd, seconds: 20)
        guard withSockaddr(name, { bind(fd, $0, $1) }) == 0 else {
            close(fd)
            throw TestSocketError(description: "bind \(name) failed: errno \(errno)")
        }
    }

    deinit {
        close(fd)
        if name.hasPrefix("/") { unlink(name) }
    }

    /// The next datagram, or `nil` after the 20 s receive timeout.
    func receive() -> String? {
        var chunk = [UInt8](repeating: 0, count: 4096)
        let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        return count > 0 ? String(decoding: chunk[..<count], as: UTF8.self) : nil
    }

    /// Receives datagrams until one contains `text`; returns every datagram seen.
    func receive(until text: String) -> [String] {
        var seen: [String] = []
        while let message = receive() {
            seen.append(message)
            if message.contains(text) { break }
        }
        return seen
    }
}
