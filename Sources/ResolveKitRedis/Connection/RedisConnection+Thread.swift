import Glibc
import Synchronization

extension RedisConnection {
    /// The thread: connect, then write and read until the connection closes; closes the descriptors last.
    func run() {
        let result = RedisSocket.connect(address, wake: wakeRead)
        var socket: Int32 = -1
        let waiter = state.withLock { state -> (CheckedContinuation<Void, any Error>, Result<Void, RedisError>)? in
            let outcome: Result<Void, RedisError>
            switch (result, state.phase) {
            case (.success(let fd), .connecting):
                state.phase = .open(fd: fd)
                socket = fd
                outcome = .success(())
            case (.success(let fd), _):
                Glibc.close(fd)
                outcome = .failure(state.closeError ?? RedisError(.closed, "The connection was closed"))
            case (.failure(let error), _):
                state.phase = .closed
                state.closeError = state.closeError ?? error
                outcome = .failure(state.closeError ?? error)
            }
            state.connectOutcome = outcome
            defer { state.connectWaiter = nil }
            return state.connectWaiter.map { ($0, outcome) }
        }
        if let (continuation, outcome) = waiter { continuation.resume(with: outcome) }
        if socket >= 0 { serve(socket) }
        state.withLock { state in
            state.threadDone = true
            if socket >= 0 { Glibc.close(socket) }
            Glibc.close(wakeRead)
            Glibc.close(wakeWrite)
        }
    }

    private func serve(_ fd: Int32) {
        var parser = RESPParser(limits: limits)
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let wanted = state.withLock { state -> Int16? in
                if case .closed = state.phase { return nil }
                if state.writeFailed { return -1 }
                return Int16(POLLIN) | (state.pipeline.hasUnwritten ? Int16(POLLOUT) : 0)
            }
            guard let wanted else { return }
            guard wanted >= 0 else {
                close(RedisError(.connectionLost, "Writing to Redis failed; the connection broke"))
                return
            }
            var fds = [
                pollfd(fd: fd, events: wanted, revents: 0), pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0),
            ]
            if poll(&fds, 2, -1) < 0 {
                if errno == EINTR { continue }
                close(RedisError(.connectionLost, "poll() failed", errno: errno))
                return
            }
            if fds[1].revents != 0 { drainWakeups() }
            if fds[0].revents & Int16(POLLOUT) != 0 {
                state.withLock { state in
                    guard case .open = state.phase else { return }
                    Self.flush(fd: fd, &state)
                }
            }
            guard fds[0].revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 else { continue }
            guard read(fd, into: &buffer, parser: &parser) else { return }
        }
    }

    /// Reads once and delivers the replies it completes; returns `false` once the connection is closed.
    private func read(_ fd: Int32, into buffer: inout [UInt8], parser: inout RESPParser) -> Bool {
        let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if count == 0 {
            close(RedisError(.connectionLost, "Redis closed the connection"))
            return false
        }
        if count < 0 {
            let code = errno
            if code == EAGAIN || code == EWOULDBLOCK || code == EINTR { return true }
            close(RedisError(.connectionLost, "Reading from Redis failed", errno: code))
            return false
        }
        var replies: [RESPValue] = []
        var failure: RESPParseError?
        buffer.withUnsafeBytes { raw in
            do throws(RESPParseError) {
                try parser.parse(UnsafeRawBufferPointer(rebasing: raw[..<count])) { replies.append($0) }
            } catch {
                failure = error
            }
        }
        guard deliver(replies) else { return false }
        if let failure {
            close(RedisError(.protocolViolation, "Redis sent bytes that are not RESP", underlying: failure))
            return false
        }
        return true
    }

    /// Hands replies to their batches in order; a reply nobody waits for closes the connection.
    private func deliver(_ replies: [RESPValue]) -> Bool {
        guard !replies.isEmpty else { return true }
        var unexpected = false
        let completed = state.withLock { state in
            var completed: [(CheckedContinuation<[RESPValue], any Error>, [RESPValue])] = []
            for reply in replies {
                // RESP3 pushes (client tracking, pub/sub) are out of band, never a reply.
                if case .push = reply.withoutAttributes { continue }
                switch state.pipeline.received(reply) {
                case .completed(let id, let values):
                    if let waiter = state.waiters.removeValue(forKey: id) { completed.append((waiter, values)) }
                case .pending, .dropped:
                    continue
                case .unexpected:
                    unexpected = true
                }
            }
            return completed
        }
        for (waiter, values) in completed { waiter.resume(returning: values) }
        if unexpected {
            close(RedisError(.protocolViolation, "Redis sent a reply to no command"))
            return false
        }
        return true
    }

    private func drainWakeups() {
        var bytes = [UInt8](repeating: 0, count: 64)
        while bytes.withUnsafeMutableBytes({ Glibc.read(wakeRead, $0.baseAddress, $0.count) }) > 0 {}
    }
}
