import Glibc

/// A loopback port that refuses every connection: a TCP socket bound to a free port and never listening. Unlike
/// the port of a server that was stopped, no other server can take it while this value holds it, so a test of
/// "connection refused" cannot meet somebody else's server. Call ``close()`` when done.
public struct LoopbackRefusingPort: Sendable {
    /// The port.
    public let port: UInt16
    private let descriptor: Int32

    /// Binds a free port on 127.0.0.1.
    /// - Throws: ``LoopbackServerError`` when the system refuses a socket or a port.
    public init() throws(LoopbackServerError) {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else {
            throw LoopbackServerError(code: .resourceFailed, message: "Could not create a socket", errno: errno)
        }
        let address = loopbackAddress(port: 0)
        let size = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, size) }
        }
        var named = sockaddr_in()
        var namedSize = size
        let read = withUnsafeMutablePointer(to: &named) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &namedSize) }
        }
        guard bound == 0, read == 0 else {
            let code = errno
            Glibc.close(descriptor)
            throw LoopbackServerError(code: .bindFailed, message: "Could not bind a loopback port", errno: code)
        }
        self.descriptor = descriptor
        self.port = UInt16(bigEndian: named.sin_port)
    }

    /// `http://127.0.0.1:<port>`.
    public var baseURL: String { "http://127.0.0.1:\(port)" }

    /// Frees the port.
    public func close() { Glibc.close(descriptor) }
}
