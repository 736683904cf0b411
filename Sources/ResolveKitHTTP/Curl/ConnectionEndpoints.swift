internal import CCurl
import Glibc

/// The two ends of a TCP connection, as numeric addresses and ports: how the curl thread finds the socket under a
/// transfer that is still running, which libcurl 7.88 does not name (`CURLINFO_ACTIVESOCKET` answers only once a
/// transfer has ended), though it does report the addresses the transfer's connection uses.
struct ConnectionEndpoints: Equatable {
    var localAddress: String
    var localPort: Int
    var remoteAddress: String
    var remotePort: Int

    /// The ends of the connection `easy` runs on, as libcurl reports them; `nil` before it has one.
    init?(transfer easy: UnsafeMutableRawPointer) {
        var localPort = 0
        var remotePort = 0
        var localAddress: UnsafePointer<CChar>?
        var remoteAddress: UnsafePointer<CChar>?
        guard rk_curl_easy_getinfo_long(easy, CURLINFO_LOCAL_PORT, &localPort) == CURLE_OK,
            rk_curl_easy_getinfo_long(easy, CURLINFO_PRIMARY_PORT, &remotePort) == CURLE_OK,
            rk_curl_easy_getinfo_string(easy, CURLINFO_LOCAL_IP, &localAddress) == CURLE_OK,
            rk_curl_easy_getinfo_string(easy, CURLINFO_PRIMARY_IP, &remoteAddress) == CURLE_OK,
            localPort > 0, remotePort > 0, let localAddress, let remoteAddress
        else { return nil }
        self.init(
            localAddress: String(cString: localAddress), localPort: localPort,
            remoteAddress: String(cString: remoteAddress), remotePort: remotePort)
    }

    /// The ends of the connected socket `descriptor`; `nil` when it is not a connected IPv4 or IPv6 socket.
    init?(socket descriptor: Int32) {
        guard let local = Self.address(of: descriptor, getsockname),
            let remote = Self.address(of: descriptor, getpeername)
        else { return nil }
        self.init(localAddress: local.0, localPort: local.1, remoteAddress: remote.0, remotePort: remote.1)
    }

    init(localAddress: String, localPort: Int, remoteAddress: String, remotePort: Int) {
        self.localAddress = localAddress
        self.localPort = localPort
        self.remoteAddress = remoteAddress
        self.remotePort = remotePort
    }

    private static func address(
        of descriptor: Int32, _ read: (Int32, UnsafeMutablePointer<sockaddr>, UnsafeMutablePointer<socklen_t>) -> Int32
    ) -> (String, Int)? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let read = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { read(descriptor, $0, &length) }
        }
        guard read == 0 else { return nil }
        switch Int32(storage.ss_family) {
        case AF_INET: return numeric(storage, as: sockaddr_in.self, family: AF_INET) { ($0.sin_addr, $0.sin_port) }
        case AF_INET6: return numeric(storage, as: sockaddr_in6.self, family: AF_INET6) { ($0.sin6_addr, $0.sin6_port) }
        default: return nil
        }
    }

    /// The address in `storage`, read as an `Address` of `family`, as numeric text and its port.
    private static func numeric<Address, Bytes>(
        _ storage: sockaddr_storage, as type: Address.Type, family: Int32, _ parts: (Address) -> (Bytes, in_port_t)
    ) -> (String, Int)? {
        withUnsafePointer(to: storage) {
            $0.withMemoryRebound(to: Address.self, capacity: 1) { address in
                let (bytes, port) = parts(address.pointee)
                var characters = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
                let written = withUnsafeBytes(of: bytes) {
                    inet_ntop(family, $0.baseAddress, &characters, socklen_t(characters.count))
                }
                guard written != nil else { return nil }
                return (text(characters), Int(UInt16(bigEndian: port)))
            }
        }
    }

    private static func text(_ characters: [CChar]) -> String {
        String(decoding: characters.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
