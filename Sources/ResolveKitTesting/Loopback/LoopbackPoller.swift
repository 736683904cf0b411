internal import CCurl
import Glibc
import ResolveKitCore
import Synchronization

/// One thread that waits on every socket of a loopback server with `epoll(7)` and resumes the tasks waiting for
/// readiness, so connection tasks never block a thread of the cooperative pool.
///
/// A wait arms its descriptor (one-shot, for what all of that descriptor's waiters want) from the waiting task; the
/// thread wakes only for descriptors that are ready. So a wait costs one `epoll_ctl`, and an event on one of a
/// thousand open streams touches that stream alone.
final class LoopbackPoller: Sendable {
    private struct Waiter {
        var events: Int16
        var continuation: CheckedContinuation<Int16, any Error>
    }

    private struct State {
        /// The waiters of each descriptor, by wait id.
        var waiters: [Int32: [Int: Waiter]] = [:]
        /// Descriptors added to the epoll set (a closed one leaves it by itself; its number may come back).
        var added: Set<Int32> = []
        var nextID = 0
        var stopped = false
        var finished: CheckedContinuation<Void, Never>?
        var threadDone = false

        /// Arms `fd` once for what its waiters want; a descriptor without waiters stays disarmed.
        mutating func arm(_ fd: Int32, in epoll: Int32) {
            let wanted = waiters[fd]?.values.reduce(Int16(0)) { $0 | $1.events } ?? 0
            guard wanted != 0 else { return }
            var event = epoll_event()
            event.events = UInt32(UInt16(bitPattern: wanted)) | EPOLLONESHOT.rawValue
            event.data.fd = fd
            let operation = added.contains(fd) ? EPOLL_CTL_MOD : EPOLL_CTL_ADD
            if epoll_ctl(epoll, operation, fd, &event) != 0, errno == ENOENT || errno == EEXIST {
                // The number was closed and reused (epoll forgot it), or is still there: the other operation fits.
                _ = epoll_ctl(epoll, operation == EPOLL_CTL_ADD ? EPOLL_CTL_MOD : EPOLL_CTL_ADD, fd, &event)
            }
            added.insert(fd)
        }

        /// Removes and returns the waiters of `fd` that `revents` answers (all of them on an error or hang-up).
        mutating func takeReady(_ fd: Int32, revents: Int16) -> [CheckedContinuation<Int16, any Error>] {
            let failed = revents & Int16(POLLERR | POLLHUP | POLLNVAL) != 0
            var ready: [CheckedContinuation<Int16, any Error>] = []
            for (id, waiter) in waiters[fd] ?? [:] where failed || waiter.events & revents != 0 {
                ready.append(waiter.continuation)
                waiters[fd]?[id] = nil
            }
            if waiters[fd]?.isEmpty == true { waiters[fd] = nil }
            return ready
        }
    }

    private let state = Mutex(State())
    private let epoll: Int32
    private let wakeRead: Int32
    private let wakeWrite: Int32
    private let listenFD: Int32
    private let onAccept: @Sendable (Int32, LoopbackPoller) -> Void

    /// Creates the epoll set and the wake-up pipe and starts the thread; `onAccept` receives each accepted,
    /// non-blocking socket.
    static func start(listenFD: Int32, onAccept: @escaping @Sendable (Int32, LoopbackPoller) -> Void)
        throws(LoopbackServerError)
        -> LoopbackPoller
    {
        let epoll = epoll_create1(Int32(EPOLL_CLOEXEC))
        guard epoll >= 0 else {
            throw LoopbackServerError(code: .resourceFailed, message: "epoll_create1 failed", errno: errno)
        }
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else {
            let code = errno
            close(epoll)
            throw LoopbackServerError(code: .resourceFailed, message: "pipe failed", errno: code)
        }
        for fd in fds { makeNonBlocking(fd) }
        for fd in [fds[0], listenFD] {
            var event = epoll_event()
            event.events = EPOLLIN.rawValue
            event.data.fd = fd
            _ = epoll_ctl(epoll, EPOLL_CTL_ADD, fd, &event)
        }
        let poller = LoopbackPoller(
            epoll: epoll, wakeRead: fds[0], wakeWrite: fds[1], listenFD: listenFD, onAccept: onAccept)
        do throws(SystemThread.StartFailure) {
            try SystemThread.detached { poller.run() }
        } catch {
            close(fds[0])
            close(fds[1])
            close(epoll)
            throw LoopbackServerError(code: .resourceFailed, message: "pthread_create failed", errno: error.errno)
        }
        return poller
    }

    private init(
        epoll: Int32, wakeRead: Int32, wakeWrite: Int32, listenFD: Int32,
        onAccept: @escaping @Sendable (Int32, LoopbackPoller) -> Void
    ) {
        self.epoll = epoll
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
                    state.waiters[fd, default: [:]][id] = Waiter(events: events, continuation: continuation)
                    state.arm(fd, in: epoll)
                    return nil
                }
                if let failure { continuation.resume(throwing: failure) }
            }
        } onCancel: {
            // The descriptor may stay armed for this waiter: an event then finds no one, and arms nothing again.
            let waiter = state.withLock { state in
                defer { if state.waiters[fd]?.isEmpty == true { state.waiters[fd] = nil } }
                return state.waiters[fd]?.removeValue(forKey: id)
            }
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
        var events = [epoll_event](repeating: epoll_event(), count: 256)
        while !state.withLock({ $0.stopped }) {
            let count = events.withUnsafeMutableBufferPointer { buffer in
                epoll_wait(epoll, buffer.baseAddress, Int32(buffer.count), -1)
            }
            guard count > 0 else { continue }
            var ready: [(CheckedContinuation<Int16, any Error>, Int16)] = []
            for event in events[..<Int(count)] {
                let fd = event.data.fd
                if fd == wakeRead {
                    drainWakePipe()
                } else if fd == listenFD {
                    acceptAll()
                } else {
                    let revents = Int16(truncatingIfNeeded: event.events)
                    state.withLock { state in
                        ready += state.takeReady(fd, revents: revents).map { ($0, revents) }
                        state.arm(fd, in: epoll)
                    }
                }
            }
            for (continuation, revents) in ready { continuation.resume(returning: revents) }
        }
        finish()
    }

    private func finish() {
        let (waiters, finished) = state.withLock { state in
            let waiters = state.waiters.values.flatMap(\.values)
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
        close(epoll)
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
