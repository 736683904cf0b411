import Glibc
import ResolveKitCore
import Synchronization

/// One socket to Redis, with a thread of its own that writes queued commands and reads replies.
///
/// Why a thread per connection with `poll`, not blocking calls on the caller's task: a task of the cooperative
/// pool must never block, and Redis replies arrive in order on one socket, so one thread per connection that
/// sleeps in `poll(2)` on the socket and a wake-up pipe is the whole event loop; commands are written straight
/// from the caller with non-blocking `send` (no thread hop when the socket buffer has room, the usual case), and
/// the thread finishes a write the buffer could not take. The thread connects too, so name resolution and the
/// connect wait never touch the pool. A client holds one connection, so the thread count is small.
///
/// Pipelining: ``send(_:)`` writes a batch of commands at once and resumes with their replies, in order;
/// concurrent batches share the socket and are answered in the order they were queued (``RedisPipeline``).
/// Timeouts are the client's (on its clock): it closes the connection, which fails every batch waiting.
final class RedisConnection: Sendable {
    enum Phase: Sendable {
        case connecting
        case open(fd: Int32)
        case closed
    }

    struct State: Sendable {
        var phase = Phase.connecting
        var pipeline = RedisPipeline()
        var waiters: [Int: CheckedContinuation<[RESPValue], any Error>] = [:]
        /// Batches with an id that have not reached ``queue`` yet, and those of them cancelled meanwhile.
        var notYetQueued: Set<Int> = []
        var cancelledBeforeQueued: Set<Int> = []
        var connectWaiter: CheckedContinuation<Void, any Error>?
        var connectOutcome: Result<Void, RedisError>?
        var closeError: RedisError?
        var nextID = 0
        var writeFailed = false
        /// The thread has ended and closed the descriptors; nothing may touch them.
        var threadDone = false
    }

    let state = Mutex(State())
    let address: RedisURL.Address
    let limits: RESPParser.Limits
    let wakeRead: Int32
    let wakeWrite: Int32

    private init(address: RedisURL.Address, limits: RESPParser.Limits, wakeRead: Int32, wakeWrite: Int32) {
        self.address = address
        self.limits = limits
        self.wakeRead = wakeRead
        self.wakeWrite = wakeWrite
    }

    /// Connects to `address`; the attempt stops with ``RedisError/Code/cancelled`` when the task is cancelled.
    static func connect(to address: RedisURL.Address, limits: RESPParser.Limits) async throws(RedisError)
        -> RedisConnection
    {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw RedisError(.connectFailed, "pipe() failed", errno: errno) }
        for fd in fds {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        let connection = RedisConnection(address: address, limits: limits, wakeRead: fds[0], wakeWrite: fds[1])
        do throws(SystemThread.StartFailure) {
            try SystemThread.detached { connection.run() }
        } catch {
            Glibc.close(fds[0])
            Glibc.close(fds[1])
            throw RedisError(.connectFailed, "Cannot start the connection's thread", errno: error.errno)
        }
        do {
            try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                    let outcome = connection.state.withLock { state -> Result<Void, RedisError>? in
                        if let outcome = state.connectOutcome { return outcome }
                        state.connectWaiter = continuation
                        return nil
                    }
                    if let outcome { continuation.resume(with: outcome) }
                }
            } onCancel: {
                connection.close(RedisError(.cancelled, "Connecting was cancelled", mayHaveExecuted: false))
            }
        } catch {
            connection.close(RedisError(.closed, "The connection attempt failed"))
            throw RedisError.wrap(error)
        }
        return connection
    }

    /// Whether the connection is up (connected and not closed).
    var isOpen: Bool {
        state.withLock {
            if case .open = $0.phase { return true }
            return false
        }
    }

    /// Writes `commands` at once and returns their replies in order (error replies included, as values).
    ///
    /// - Throws: ``RedisError`` with ``RedisError/Code/connectionLost`` or ``RedisError/Code/protocolViolation``
    ///   when the connection broke first, ``RedisError/Code/cancelled`` when the task was cancelled; each says
    ///   whether the commands may have executed.
    func send(_ commands: [RedisCommand]) async throws(RedisError) -> [RESPValue] {
        guard !commands.isEmpty else { return [] }
        var bytes: [UInt8] = []
        for command in commands { command.encode(into: &bytes) }
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            state.notYetQueued.insert(state.nextID)
            return state.nextID
        }
        do {
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    if let refusal = queue(id: id, bytes: bytes, count: commands.count, continuation) {
                        continuation.resume(throwing: refusal)
                    }
                }
            } onCancel: {
                abandon(id: id)
            }
        } catch {
            throw RedisError.wrap(error)
        }
    }

    /// Queues and tries to write a batch; returns why it cannot be queued.
    private func queue(
        id: Int, bytes: [UInt8], count: Int, _ continuation: CheckedContinuation<[RESPValue], any Error>
    ) -> RedisError? {
        state.withLock { state in
            state.notYetQueued.remove(id)
            if state.cancelledBeforeQueued.remove(id) != nil {
                return RedisError(.cancelled, "The command was cancelled", mayHaveExecuted: false)
            }
            guard case .open(let fd) = state.phase else {
                var error = state.closeError ?? RedisError(.connectionLost, "The connection is closed")
                error.mayHaveExecuted = false
                return error
            }
            state.waiters[id] = continuation
            state.pipeline.enqueue(id: id, bytes: bytes, count: count)
            Self.flush(fd: fd, &state)
            if state.pipeline.hasUnwritten || state.writeFailed { wake() }
            return nil
        }
    }

    /// A cancelled waiter: its replies will be dropped when they come.
    private func abandon(id: Int) {
        let taken = state.withLock { state -> (CheckedContinuation<[RESPValue], any Error>, Bool)? in
            guard let waiter = state.waiters.removeValue(forKey: id) else {
                // Not queued yet: refuse it when it comes. Already answered or failed: nothing to do.
                if state.notYetQueued.contains(id) { state.cancelledBeforeQueued.insert(id) }
                return nil
            }
            return (waiter, state.pipeline.abandon(id: id) ?? false)
        }
        guard let (waiter, written) = taken else { return }
        waiter.resume(throwing: RedisError(.cancelled, "The command was cancelled", mayHaveExecuted: written))
    }

    /// Closes the connection: every waiting batch fails with `error` (and whether it was written), the thread stops
    /// and closes the socket. Closing twice does nothing.
    func close(_ error: RedisError) {
        let (failures, connectWaiter) = state.withLock {
            state -> (
                [(CheckedContinuation<[RESPValue], any Error>, RedisError)], CheckedContinuation<Void, any Error>?
            ) in
            if case .closed = state.phase { return ([], nil) }
            state.phase = .closed
            state.closeError = error
            let failures = state.pipeline.failAll().compactMap { failure in
                state.waiters.removeValue(forKey: failure.id).map { waiter in
                    var error = error
                    error.mayHaveExecuted = failure.mayHaveExecuted
                    return (waiter, error)
                }
            }
            state.connectOutcome = .failure(error)
            if !state.threadDone { wake() }
            defer { state.connectWaiter = nil }
            return (failures, state.connectWaiter)
        }
        connectWaiter?.resume(throwing: error)
        for (waiter, error) in failures { waiter.resume(throwing: error) }
    }

    /// Makes the thread's `poll` return. Called with the lock held, while the thread has not closed the pipe.
    func wake() {
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
    }

    /// Writes what the socket takes now, without blocking; a hard error marks the connection for the thread.
    static func flush(fd: Int32, _ state: inout State) {
        var failed = false
        state.pipeline.write { raw in
            let sent = Glibc.send(fd, raw.baseAddress, raw.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
            if sent < 0, errno != EAGAIN, errno != EWOULDBLOCK, errno != EINTR { failed = true }
            return max(sent, 0)
        }
        if failed { state.writeFailed = true }
    }
}

extension RedisError {
    /// `error` as a ``RedisError``; anything else (which the connection never throws) as a lost connection.
    static func wrap(_ error: any Error) -> RedisError {
        if let error = error as? RedisError { return error }
        if error is CancellationError {
            return RedisError(.cancelled, "The task was cancelled", mayHaveExecuted: false)
        }
        return RedisError(.connectionLost, "\(error)", mayHaveExecuted: true)
    }
}
