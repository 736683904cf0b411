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
        (descriptor, port) = try bindFreeLoopbackPort()
    }

    /// `http://127.0.0.1:<port>`.
    public var baseURL: String { "http://127.0.0.1:\(port)" }

    /// Frees the port.
    public func close() { Glibc.close(descriptor) }
}
