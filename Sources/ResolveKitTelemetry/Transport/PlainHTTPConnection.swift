import Glibc
import Synchronization

/// One non-blocking TCP connection whose every wait has a deadline: what ``PlainHTTPTransport`` sends requests on.
///
/// `@unchecked Sendable`: only the transport's serial queue uses it, one request at a time; between requests it
/// rests in the transport's locked state.
final class PlainHTTPConnection: @unchecked Sendable {
    let fd: Int32
    /// `host:port` as the endpoint names it, for the `Host` header and messages.
    let authority: String

    private init(fd: Int32, authority: String) {
        self.fd = fd
        self.authority = authority
    }

    deinit { close(fd) }

    /// Connects to `endpoint`, trying each address it resolves to, before `deadline`.
    /// - Throws: ``TelemetryError``: `connect_failed` (refused, unreachable, not resolved) or `timed_out`.
    static func open(
        to endpoint: EndpointURL, deadline: ContinuousClock.Instant, cancelled: CancelFlag
    ) throws(TelemetryError) -> PlainHTTPConnection {
        let authority =
            endpoint.host.contains(":") ? "[\(endpoint.host)]:\(endpoint.port)" : "\(endpoint.host):\(endpoint.port)"
        var lastError = TelemetryError(.connectFailed, "\(authority) has no address")
        for address in try SocketAddress.resolve(host: endpoint.host, port: endpoint.port) {
            let fd = socket(
                address.family, Int32(SOCK_STREAM.rawValue | SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue), 0)
            guard fd >= 0 else { throw TelemetryError(.socketFailed, "socket() failed", errno: errno) }
            let connection = PlainHTTPConnection(fd: fd, authority: authority)
            var noDelay: Int32 = 1
            setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &noDelay, socklen_t(MemoryLayout<Int32>.size))
            let result = address.withSockaddr { connect(fd, $0, $1) }
            if result == 0 { return connection }
            guard errno == EINPROGRESS else {
                lastError = TelemetryError(.connectFailed, "connecting to \(authority) failed", errno: errno)
                continue
            }
            do {
                try connection.wait(for: Int16(POLLOUT), until: deadline, cancelled: cancelled, doing: "connecting")
            } catch {
                if error.code == .timedOut || error.code == .shutdown { throw error }
                lastError = error
                continue
            }
            var code: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            getsockopt(fd, SOL_SOCKET, SO_ERROR, &code, &length)
            if code == 0 { return connection }
            lastError = TelemetryError(.connectFailed, "connecting to \(authority) failed", errno: code)
        }
        throw lastError
    }

    /// Writes every byte before `deadline`.
    func writeAll(_ bytes: [UInt8], deadline: ContinuousClock.Instant, cancelled: CancelFlag) throws(TelemetryError) {
        var offset = 0
        while offset < bytes.count {
            let count = bytes.withUnsafeBytes {
                send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL))
            }
            if count >= 0 {
                offset += count
                continue
            }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK:
                try wait(for: Int16(POLLOUT), until: deadline, cancelled: cancelled, doing: "sending")
            default: throw TelemetryError(.protocolError, "sending to \(authority) failed", errno: errno)
            }
        }
    }

    /// Reads what arrives, waiting until something does; an empty result means the peer closed.
    func read(deadline: ContinuousClock.Instant, cancelled: CancelFlag) throws(TelemetryError) -> [UInt8] {
        while true {
            var code: Int32 = 0
            let bytes = [UInt8](unsafeUninitializedCapacity: 16 * 1024) { buffer, initialized in
                let count = recv(fd, buffer.baseAddress, buffer.count, 0)
                if count < 0 { code = errno }
                initialized = max(count, 0)
            }
            if code == 0 { return bytes }
            switch code {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK:
                try wait(for: Int16(POLLIN), until: deadline, cancelled: cancelled, doing: "waiting for the answer")
            default: throw TelemetryError(.protocolError, "reading from \(authority) failed", errno: code)
            }
        }
    }

    /// Whether the idle connection was closed by the peer (or has unexpected bytes), so it cannot be reused.
    var isClosedByPeer: Bool {
        var pollfd = Glibc.pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&pollfd, 1, 0) > 0 else { return false }
        return true
    }

    /// Polls in slices of 50 ms so that a cancelled request or a shutdown stops waiting promptly.
    private func wait(
        for events: Int16, until deadline: ContinuousClock.Instant, cancelled: CancelFlag, doing what: String
    ) throws(TelemetryError) {
        let clock = ContinuousClock()
        while true {
            if cancelled.isSet {
                throw TelemetryError(.shutdown, "the request to \(authority) was cancelled while \(what)")
            }
            let remaining = clock.now.duration(to: deadline)
            guard remaining > .zero else { throw TelemetryError(.timedOut, "\(authority) timed out while \(what)") }
            let slice = min(remaining, .milliseconds(50)).components
            let milliseconds = Int32(max(1, slice.seconds * 1000 + slice.attoseconds / 1_000_000_000_000_000))
            var pollfd = Glibc.pollfd(fd: fd, events: events, revents: 0)
            let result = poll(&pollfd, 1, milliseconds)
            if result > 0 { return }
            if result < 0, errno != EINTR {
                throw TelemetryError(.protocolError, "poll failed while \(what)", errno: errno)
            }
        }
    }
}
