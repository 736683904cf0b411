import Foundation
import Glibc

/// A blocking client socket for speaking raw HTTP/1.1 to the loopback server. Every call runs on its own thread,
/// so the blocking I/O never occupies the cooperative pool; reads give up after five seconds.
final class RawHTTPConnection: @unchecked Sendable {
    // Invariant: `fd` is only used by one call at a time; each test drives its connection sequentially.
    private let fd: Int32
    private var received: [UInt8] = []

    /// Connects to 127.0.0.1:`port`.
    init(port: Int) async throws {
        fd = try await onThread { () throws -> Int32 in
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var timeout = timeval(tv_sec: 5, tv_usec: 0)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = UInt16(port).bigEndian
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            guard result == 0 else {
                close(fd)
                throw RawConnectionError(message: "connect failed, errno \(errno)")
            }
            return fd
        }
    }

    deinit { close(fd) }

    /// Sends `text` as UTF-8.
    func send(_ text: String) async throws {
        try await send(Array(text.utf8))
    }

    /// Sends `bytes`.
    func send(_ bytes: [UInt8]) async throws {
        let fd = fd
        try await onThread {
            var offset = 0
            while offset < bytes.count {
                let count = bytes.withUnsafeBytes {
                    Glibc.send(fd, $0.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
                }
                guard count > 0 else { throw RawConnectionError(message: "send failed, errno \(errno)") }
                offset += count
            }
        }
    }

    /// Reads one whole response (status line, headers, and a `Content-Length` or chunked body).
    func readResponse() async throws -> RawHTTPResponse {
        while true {
            if let (response, used) = RawHTTPResponse.parse(received) {
                received.removeFirst(used)
                return response
            }
            let bytes = try await readSome()
            guard !bytes.isEmpty else { throw RawConnectionError(message: "connection closed mid-response") }
            received += bytes
        }
    }

    /// Reads until the server closes the connection; returns everything not yet consumed.
    func readToEnd() async throws -> [UInt8] {
        while true {
            let bytes = try await readSome()
            if bytes.isEmpty { break }
            received += bytes
        }
        defer { received = [] }
        return received
    }

    /// Reads until `needle` appears in the unconsumed bytes; returns them and keeps nothing.
    func read(until needle: String) async throws -> String {
        while !String(decoding: received, as: UTF8.self).contains(needle) {
            let bytes = try await readSome()
            guard !bytes.isEmpty else { throw RawConnectionError(message: "connection closed before \(needle)") }
            received += bytes
        }
        defer { received = [] }
        return String(decoding: received, as: UTF8.self)
    }

    /// Closes the socket now.
    func closeNow() {
        _ = shutdown(fd, Int32(SHUT_RDWR))
    }

    private func readSome() async throws -> [UInt8] {
        let fd = fd
        return try await onThread {
            var buffer = [UInt8](repeating: 0, count: 65536)
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, 65536, 0) }
            if count < 0 { throw RawConnectionError(message: "recv failed or timed out, errno \(errno)") }
            return Array(buffer.prefix(count))
        }
    }
}

/// A raw-socket failure in a test.
struct RawConnectionError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}

/// Runs blocking work on a fresh thread and returns its result.
func onThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread {
            continuation.resume(with: Result { try work() })
        }
        thread.start()
    }
}
