import Glibc

/// A connected, non-blocking socket whose waits go through the server's poller.
struct LoopbackSocket: Sendable {
    /// The file descriptor; the connection closes it.
    let fd: Int32
    /// The thread that reports readiness.
    let poller: LoopbackPoller

    /// Reads what is available, waiting until something is; an empty result means the peer closed its side.
    func read(maxBytes: Int = 64 * 1024) async throws -> [UInt8] {
        while true {
            // Uninitialised: zeroing 64 KiB for every read of a small request costs more than the read.
            var code: Int32 = 0
            let bytes = [UInt8](unsafeUninitializedCapacity: maxBytes) { buffer, initialized in
                let count = recv(fd, buffer.baseAddress, maxBytes, 0)
                if count < 0 { code = errno }
                initialized = max(count, 0)
            }
            if code == 0 { return bytes }
            if code == EINTR { continue }
            guard code == EAGAIN || code == EWOULDBLOCK else {
                throw LoopbackServerError(code: .connectionClosed, message: "recv failed", errno: code)
            }
            _ = try await poller.wait(fd: fd, events: Int16(POLLIN))
        }
    }

    /// Writes every byte, waiting whenever the socket's send buffer is full.
    /// - Throws: ``LoopbackServerError`` when the peer is gone; `CancellationError` when the task is cancelled.
    func writeAll(_ bytes: [UInt8]) async throws {
        var offset = 0
        while offset < bytes.count {
            try Task.checkCancellation()
            let count = bytes.withUnsafeBytes { raw in
                send(fd, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
            }
            if count >= 0 {
                offset += count
                continue
            }
            let code = errno
            if code == EINTR { continue }
            guard code == EAGAIN || code == EWOULDBLOCK else {
                throw LoopbackServerError(code: .connectionClosed, message: "send failed", errno: code)
            }
            _ = try await poller.wait(fd: fd, events: Int16(POLLOUT))
        }
    }

    /// Waits until the peer closes or resets the connection; returns early (without a verdict) when the peer sends
    /// more data instead, e.g. a pipelined request.
    /// - Returns: whether the peer is gone.
    func waitForPeerClose() async -> Bool {
        while true {
            guard let revents = try? await poller.wait(fd: fd, events: Int16(POLLIN)) else { return false }
            if revents & Int16(POLLERR | POLLHUP | POLLNVAL) != 0 { return true }
            var byte: UInt8 = 0
            let count = recv(fd, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT))
            if count == 0 { return true }
            if count > 0 { return false }
            let code = errno
            if code != EAGAIN && code != EWOULDBLOCK && code != EINTR { return true }
        }
    }

    /// Shuts both directions down at once, so the peer sees the connection end even before the descriptor closes.
    func shutdownBoth() {
        _ = Glibc.shutdown(fd, Int32(SHUT_RDWR))
    }
}
