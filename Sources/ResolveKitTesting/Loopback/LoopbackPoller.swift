import Glibc
import Synchronization

/// One thread that waits on every socket of a loopback server with `poll(2)` and resumes the tasks waiting for
/// readiness, so connection tasks never block a thread of the cooperative pool.
final class LoopbackPoller: Sendable {
    private struct Waiter {
        var fd: Int32
        var events: Int16
        var continuation: CheckedContinuation<Int16, any Error>
    }

    private struct State {
        var waiters: [Int: Waiter] = [:]
        var nextID = 0
        var stopped = false
        var finished: CheckedContinuation<Void, Never>?
        var threadDone = false
    }

    private let state = Mutex(State())
    private let wakeRead: Int32
    private let wakeWrite: Int32
    private let listenFD: Int32
    private let onAccept: @Sendable (Int32, LoopbackPoller) -> Void

    /// Creates the wake-up pipe and starts the polling thread; `onAccept` receives each accepted, non-blocking socket.
    static func start(listenFD: Int32, onAccept: @escaping @Sendable (Int32, LoopbackPoller) -> Void)
        throws(LoopbackServerError)
        -> LoopbackPoller
    {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else {
            throw LoopbackServerError(code: .resourceFailed, message: "pipe failed", errno: errno)
        }
        for fd in fds { makeNonBlocking(fd) }
        let poller = LoopbackPoller(wakeRead: fds[0], wakeWrite: fds[1], listenFD: listenFD, onAccept: onAccept)
        let thread = LoopbackThread { poller.run() }
        do {
            try thread.start()
        } catch {
            close(fds[0])
            close(fds[1])
            throw error
        }
        return poller
    }

    private init(
        wakeRead: Int32, wakeWrite: Int32, listenFD: Int32,
        onAccept: @escaping @Sendable (Int32, LoopbackPoller) -> Void
    ) {
        self.wakeRead = wakeRead
        self.wakeWrite = wakeWrite
        self.listenFD = listenFD
        self.onAccept = onAccept
    }

    /// Suspends until `fd` reports one of `events` (or an error or hang-up) and returns the reported events.
    /// - Throws: `CancellationError` when the task is cancelled, ``LoopbackServerError`` once the poller stopped.
    func wait(fd: Int32, events: Int16) async throws -> Int16 {
        let id = state.withLock { state -> Int in
            state.nextID += 1
            return state.nextID
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let failure: (any Error)? = state.withLock { state in
                    if state.stopped { return LoopbackServerError(code: .stopped, message: "The server stopped") }
                    if Task.isCancelled { return CancellationError() }
                    state.waiters[id] = Waiter(fd: fd, events: events, continuation: continuation)
                    return nil
                }
                if let failure {
                    continuation.resume(throwing: failure)
                } else {
                    wake()
                }
            }
        } onCancel: {
            let waiter = state.withLock { $0.waiters.removeValue(forKey: id) }
            waiter?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Stops the thread, fails every waiter, and returns once the thread has exited.
    func stop() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let alreadyDone = state.withLock { state -> Bool in
                state.stopped = true
                if state.threadDone { return true }
                state.finished = continuation
                return false
            }
            if alreadyDone {
                continuation.resume()
            } else {
                wake()
            }
        }
    }

    private func wake() {
        var byte: UInt8 = 1
        _ = Glibc.write(wakeWrite, &byte, 1)
    }

    private func run() {
        var pollFDs: [pollfd] = []
        var ids: [Int] = []
        while true {
            let stopped = state.withLock { state -> Bool in
                if state.stopped { return true }
                pollFDs = [
                    pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0),
                    pollfd(fd: listenFD, events: Int16(POLLIN), revents: 0),
                ]
                ids = []
                for (id, waiter) in state.waiters {
                    pollFDs.append(pollfd(fd: waiter.fd, events: waiter.events, revents: 0))
                    ids.append(id)
                }
                return false
            }
            if stopped { break }
            let count = poll(&pollFDs, nfds_t(pollFDs.count), -1)
            if count < 0 { continue }
            if pollFDs[0].revents != 0 { drainWakePipe() }
            if pollFDs[1].revents != 0 { acceptAll() }
            var ready: [(CheckedContinuation<Int16, any Error>, Int16)] = []
            state.withLock { state in
                for (index, id) in ids.enumerated() where pollFDs[index + 2].revents != 0 {
                    if let waiter = state.waiters.removeValue(forKey: id) {
                        ready.append((waiter.continuation, pollFDs[index + 2].revents))
                    }
                }
            }
            for (continuation, revents) in ready { continuation.resume(returning: revents) }
        }
        finish()
    }

    private func finish() {
        let (waiters, finished) = state.withLock { state in
            let waiters = Array(state.waiters.values)
            state.waiters = [:]
            state.threadDone = true
            let finished = state.finished
            state.finished = nil
            return (waiters, finished)
        }
        for waiter in waiters {
            waiter.continuation.resume(throwing: LoopbackServerError(code: .stopped, message: "The server stopped"))
        }
        close(wakeRead)
        close(wakeWrite)
        finished?.resume()
    }

    private func drainWakePipe() {
        var buffer = [UInt8](repeating: 0, count: 64)
        while Glibc.read(wakeRead, &buffer, buffer.count) > 0 {}
    }

    private func acceptAll() {
        while true {
            let client = accept(listenFD, nil, nil)
            if client < 0 { return }
            makeNonBlocking(client)
            var one: Int32 = 1
            setsockopt(client, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
            onAccept(client, self)
        }
    }
}

/// Sets `O_NONBLOCK` and `FD_CLOEXEC` on a descriptor.
func makeNonBlocking(_ fd: Int32) {
    _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
}
