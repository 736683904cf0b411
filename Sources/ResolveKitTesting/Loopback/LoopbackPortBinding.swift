import Glibc

/// A TCP socket bound to a free port on 127.0.0.1, and that port: what a refusing port keeps and a relay listens on.
/// - Throws: ``LoopbackServerError`` when the system refuses a socket or a port.
func bindFreeLoopbackPort() throws(LoopbackServerError) -> (descriptor: Int32, port: UInt16) {
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
    return (descriptor, UInt16(bigEndian: named.sin_port))
}

/// A TCP socket connected to `127.0.0.1:port`, or `nil` when nothing accepts there.
func connectToLoopback(port: Int) -> Int32? {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard descriptor >= 0 else { return nil }
    let address = loopbackAddress(port: port)
    let connected = withUnsafePointer(to: address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
    }
    guard connected == 0 else {
        Glibc.close(descriptor)
        return nil
    }
    return descriptor
}
