import Glibc

/// Tells systemd about the service's state (`sd_notify`, without libsystemd): one datagram per message to the
/// Unix socket named by `NOTIFY_SOCKET`, a path or, with a leading `@`, an abstract socket name.
struct SystemdNotifier: Sendable {
    /// The socket address from `NOTIFY_SOCKET`, or `nil` when the service does not run under `Type=notify`.
    let socketName: String?

    /// Reads `NOTIFY_SOCKET` from `environment`; anything but an absolute path or an `@name` is ignored.
    init(environment: [String: String]) {
        let name = environment["NOTIFY_SOCKET"] ?? ""
        socketName = name.hasPrefix("/") || (name.hasPrefix("@") && name.count > 1) ? name : nil
    }

    /// Sends `state` (newline-separated `KEY=value` assignments such as `READY=1\nSTATUS=Connected`).
    /// - Returns: whether the datagram was sent; `false` without `NOTIFY_SOCKET` or when the socket is gone.
    @discardableResult
    func notify(_ state: String) -> Bool {
        guard let socketName else { return false }
        var nameBytes = Array(socketName.utf8)
        if nameBytes.first == UInt8(ascii: "@") { nameBytes[0] = 0 }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard nameBytes.count < capacity else { return false }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: nameBytes) }
        let pathOffset = MemoryLayout<sockaddr_un>.offset(of: \.sun_path) ?? 2
        // A path is measured with its NUL; an abstract name is exactly its bytes.
        let length = pathOffset + nameBytes.count + (nameBytes[0] == 0 ? 0 : 1)
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        let message = Array(state.utf8)
        let sent = message.withUnsafeBytes { bytes in
            withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    sendto(fd, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL), $0, socklen_t(length))
                }
            }
        }
        return sent == message.count
    }
}
