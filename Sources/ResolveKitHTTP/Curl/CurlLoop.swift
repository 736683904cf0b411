internal import CCurl
import Glibc
import ResolveKitCore
import Synchronization

/// The shared side of the one thread that owns a client's curl multi handle: other threads post commands and wake
/// the thread through an `eventfd`; the thread (``CurlMultiDriver``) does every curl call on the handles.
///
/// The thread starts with the first transfer (never from an initialiser), or earlier on ``start()``, and ends on
/// ``stop()``, which returns only after every transfer was aborted and the multi handle cleaned up.
final class CurlLoop: Sendable {
    /// Work for the curl thread.
    enum Command: Sendable {
        /// Start a transfer.
        case add(Transfer)
        /// Abort a transfer and free its easy handle; a `timedOut` error also shuts its connection down.
        case cancel(Int, HTTPError)
        /// Resume a transfer paused for back-pressure.
        case unpause(Int)
    }

    private enum Phase {
        case idle
        case running
        case stopping
        case stopped
    }

    private struct Inbox {
        var phase = Phase.idle
        var commands: [Command] = []
        var stopWaiters: [CheckedContinuation<Void, Never>] = []
        var nextID = 0
    }

    private let inbox = Mutex(Inbox())
    private let multi: MultiHandle
    /// Options every transfer of this loop gets.
    let configuration: HTTPClient.Configuration
    /// The thread's name, as `top -H` and `perf` show it (at most 15 bytes).
    let threadName: String
    /// Event-stream chunks handed to readers that have not resumed yet (see ``HTTPClient/streamChunksWaiting``).
    let streamChunksWaiting = Atomic<Int>(0)
    /// Submitters that decided, under the lock, to wake the thread and have not finished writing to the
    /// `eventfd`: the handle is freed only once none is left.
    private let wakesInFlight = Atomic<Int>(0)

    /// Creates the multi handle; no thread runs yet.
    init(configuration: HTTPClient.Configuration, threadName: String) {
        CurlGlobal.initialise()
        self.configuration = configuration
        self.threadName = threadName
        self.multi = MultiHandle(curl_multi_init())
        if configuration.maxCachedConnections > 0 {
            _ = rk_curl_multi_setopt_long(multi.pointer, CURLMOPT_MAXCONNECTS, configuration.maxCachedConnections)
        }
    }

    /// A fresh transfer id.
    func makeID() -> Int {
        inbox.withLock { inbox in
            inbox.nextID += 1
            return inbox.nextID
        }
    }

    /// Starts the thread now, from the calling thread, rather than with the first transfer: a thread inherits its
    /// maker's `nice`, and the first transfer may come from a thread at a lower priority that an unprivileged
    /// process cannot raise again. Does nothing once started or stopped.
    func start() {
        let starts = inbox.withLock { inbox -> Bool in
            guard inbox.phase == .idle else { return false }
            inbox.phase = .running
            return true
        }
        if starts { startDriverThread() }
    }

    /// Posts `command` and wakes the curl thread, starting it for the first transfer.
    /// - Returns: `false` when the command was dropped: the loop is stopping or stopped (or, for a command other
    ///   than `add`, has not started, so there is nothing to cancel or unpause).
    ///
    /// The thread is woken only when the inbox was empty (a command behind another is taken with it), and outside
    /// the lock: the write wakes the thread at once, and had the writer still held the lock, the thread would spin
    /// on it, on a small machine often while the writer waits for the core the thread took.
    func submit(_ command: Command) -> Bool {
        enum Next {
            case dropped, startThread, wake, nothing
        }
        let next = inbox.withLock { inbox -> Next in
            switch inbox.phase {
            case .stopping, .stopped:
                return .dropped
            case .idle:
                // Only a new transfer starts the thread; cancel and unpause can only concern running transfers.
                guard case .add = command else { return .dropped }
                inbox.phase = .running
                inbox.commands.append(command)
                return .startThread
            case .running:
                let wasEmpty = inbox.commands.isEmpty
                inbox.commands.append(command)
                guard wasEmpty else { return .nothing }
                // Counted under the lock, so the thread, which sets `.stopped` under it, waits for this write
                // before it frees the descriptor.
                wakesInFlight.add(1, ordering: .relaxed)
                return .wake
            }
        }
        switch next {
        case .dropped:
            return false
        case .startThread:
            startDriverThread()
        case .wake:
            multi.wake()
            wakesInFlight.subtract(1, ordering: .releasing)
        case .nothing:
            break
        }
        return true
    }

    /// Aborts every transfer, ends the thread and waits for it. Idempotent.
    func stop() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let finished = inbox.withLock { inbox -> Bool in
                switch inbox.phase {
                case .idle:
                    inbox.phase = .stopped
                    multi.cleanup()
                    return true
                case .stopped:
                    return true
                case .running, .stopping:
                    inbox.phase = .stopping
                    inbox.stopWaiters.append(continuation)
                    multi.wake()
                    return false
                }
            }
            if finished { continuation.resume() }
        }
    }

    /// Asks the thread to stop without waiting (for a client dropped without `shutdown()`).
    func requestStop() {
        inbox.withLock { inbox in
            switch inbox.phase {
            case .idle:
                inbox.phase = .stopped
                multi.cleanup()
            case .running:
                inbox.phase = .stopping
                multi.wake()
            case .stopping, .stopped:
                break
            }
        }
    }

    /// Takes the posted commands; `stopping` tells the thread to wind down.
    func takeCommands() -> (commands: [Command], stopping: Bool) {
        inbox.withLock { inbox in
            let commands = inbox.commands
            inbox.commands = []
            return (commands, inbox.phase == .stopping)
        }
    }

    /// Called by the thread after it aborted everything: marks the loop stopped and returns the commands that
    /// arrived meanwhile, so their transfers can be failed. Returns once no submitter is still waking the thread:
    /// the multi handle and its descriptor may then be freed.
    func markStopped() -> (commands: [Command], waiters: [CheckedContinuation<Void, Never>]) {
        let stopped = inbox.withLock { inbox in
            inbox.phase = .stopped
            defer {
                inbox.commands = []
                inbox.stopWaiters = []
            }
            return (inbox.commands, inbox.stopWaiters)
        }
        // A write in flight takes microseconds; no new one starts once the phase is `.stopped`.
        while wakesInFlight.load(ordering: .acquiring) > 0 { sched_yield() }
        return stopped
    }

    private func startDriverThread() {
        let multi = multi
        do throws(SystemThread.StartFailure) {
            try SystemThread.detached(name: threadName, priority: configuration.isBackground ? .idle : .normal) {
                [self] in CurlMultiDriver(multi: multi, loop: self).run()
            }
        } catch {
            // No thread: fail everything posted so far; nothing can drive the transfers.
            let (commands, waiters) = markStopped()
            for case .add(let transfer) in commands {
                transfer.curlCompleted(HTTPError(code: .transportFailed, message: "Could not start the curl thread"))
            }
            multi.cleanup()
            for waiter in waiters { waiter.resume() }
        }
    }
}

/// The multi handle pointer and the `eventfd` that wakes its thread.
struct MultiHandle: @unchecked Sendable {
    // Invariant: only the curl thread uses the handle; other threads only write to `wakeDescriptor`, which
    // `CurlLoop` does only after seeing the phase `.running` under its lock, and the handle and descriptor are
    // released only after the phase became `.stopped` and those writes finished (`markStopped`).
    let pointer: UnsafeMutableRawPointer
    /// Readable when commands wait; the curl thread's `epoll` watches it beside the transfers' sockets.
    let wakeDescriptor: Int32

    init(_ pointer: UnsafeMutableRawPointer?) {
        guard let pointer else { preconditionFailure("curl_multi_init failed: libcurl is out of memory") }
        let descriptor = eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC))
        guard descriptor >= 0 else { preconditionFailure("eventfd failed (errno \(errno)): out of descriptors") }
        self.pointer = pointer
        self.wakeDescriptor = descriptor
    }

    /// Wakes the curl thread.
    func wake() {
        var one: UInt64 = 1
        _ = write(wakeDescriptor, &one, 8)
    }

    /// Frees the handle and the wake descriptor; once only, after the last use.
    func cleanup() {
        curl_multi_cleanup(pointer)
        close(wakeDescriptor)
    }
}
