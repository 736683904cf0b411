import Glibc

/// The metrics endpoint's thread: one `poll` over the listening socket, a wake-up pipe and the open connections,
/// each of which reads one request head, gets its answer and is closed once the answer is written.
///
/// `@unchecked Sendable`: handed to the thread at start and used only there.
final class MetricsEndpointLoop: @unchecked Sendable {
    private struct Connection {
        var fd: Int32
        var deadline: ContinuousClock.Instant
        var input: [UInt8] = []
        var output: [UInt8] = []
        var written = 0
        var answered = false
    }

    private let listenFD: Int32
    private let wakeFD: Int32
    private let registry: MetricsRegistry
    private let limits: MetricsEndpoint.Limits
    private let served: ServedCount
    private var connections: [Connection] = []
    private let clock = ContinuousClock()

    init(
        listenFD: Int32, wakeFD: Int32, registry: MetricsRegistry, limits: MetricsEndpoint.Limits,
        served: ServedCount
    ) {
        self.listenFD = listenFD
        self.wakeFD = wakeFD
        self.registry = registry
        self.limits = limits
        self.served = served
    }

    func run() {
        defer { connections.forEach { close($0.fd) } }
        while true {
            var fds = [
                pollfd(fd: wakeFD, events: Int16(POLLIN), revents: 0),
                pollfd(
                    fd: connections.count < limits.maxConnections ? listenFD : -1, events: Int16(POLLIN), revents: 0),
            ]
            for connection in connections {
                let events = connection.answered ? POLLOUT : POLLIN
                fds.append(pollfd(fd: connection.fd, events: Int16(events), revents: 0))
            }
            let timeout = connections.map { clock.now.duration(to: $0.deadline) }.min().map(Self.milliseconds) ?? -1
            let ready = poll(&fds, nfds_t(fds.count), timeout)
            if ready < 0, errno != EINTR { return }
            if fds[0].revents != 0 { return }
            var survivors: [Connection] = []
            for (index, var connection) in connections.enumerated() {
                let revents = fds[index + 2].revents
                if revents != 0, !serve(&connection, revents: revents) {
                    close(connection.fd)
                    continue
                }
                guard clock.now < connection.deadline else {
                    close(connection.fd)
                    continue
                }
                survivors.append(connection)
            }
            connections = survivors
            if fds[1].revents != 0 { acceptAll() }
        }
    }

    private func acceptAll() {
        while connections.count < limits.maxConnections {
            let fd = accept(listenFD, nil, nil)
            guard fd >= 0 else { return }
            SocketOptions.makeNonBlockingAndCloseOnExec(fd)
            connections.append(Connection(fd: fd, deadline: clock.now.advanced(by: limits.requestTimeout)))
        }
    }

    /// Reads or writes what the socket allows; returns whether the connection stays open.
    private func serve(_ connection: inout Connection, revents: Int16) -> Bool {
        if !connection.answered {
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = recv(connection.fd, &buffer, buffer.count, 0)
            if count < 0 { return errno == EAGAIN || errno == EINTR }
            if count == 0 { return false }
            connection.input.append(contentsOf: buffer[..<count])
            if let end = Self.headEnd(connection.input), end <= limits.maxRequestHeadBytes {
                let request = MetricsRequest(head: connection.input[..<end])
                connection.output =
                    request?.response(registry: registry)
                    ?? MetricsRequest.response(
                        status: "400 Bad Request", contentType: "text/plain; charset=utf-8",
                        body: Array("Not an HTTP/1.x request\n".utf8))
                connection.answered = true
                served.increment()
            } else if connection.input.count > limits.maxRequestHeadBytes {
                connection.output = MetricsRequest.response(
                    status: "431 Request Header Fields Too Large", contentType: "text/plain; charset=utf-8",
                    body: Array("The request head is over \(limits.maxRequestHeadBytes) bytes\n".utf8))
                connection.answered = true
            } else {
                return true
            }
        }
        while connection.written < connection.output.count {
            let count = connection.output.withUnsafeBytes {
                send(
                    connection.fd, $0.baseAddress! + connection.written, $0.count - connection.written,
                    Int32(MSG_NOSIGNAL))
            }
            if count < 0 { return errno == EAGAIN || errno == EINTR }
            connection.written += count
        }
        shutdown(connection.fd, Int32(SHUT_WR))
        return false
    }

    /// The offset of the blank line ending a request head, if it has arrived.
    private static func headEnd(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for index in 0...(bytes.count - 4)
        where bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10 {
            return index
        }
        return nil
    }

    private static func milliseconds(_ duration: Duration) -> Int32 {
        let parts = duration.components
        return Int32(clamping: max(0, parts.seconds * 1000 + parts.attoseconds / 1_000_000_000_000_000 + 1))
    }
}
