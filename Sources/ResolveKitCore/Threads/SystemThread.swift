import Glibc

/// A POSIX thread running one closure: the package's I/O loops (the curl thread, Redis connections, the metrics
/// endpoint, the loopback servers) and telemetry's background work each run on one of their own, never on the
/// cooperative pool.
package struct SystemThread: @unchecked Sendable {
    // @unchecked: `pthread_t` is an integer handle; only the owner joins or detaches it, once.

    /// How the kernel schedules the thread.
    package enum Priority: Sendable {
        /// The process's own policy.
        case normal
        /// `SCHED_IDLE`: any other thread that wakes up takes the core at once, and while others run this one gets a
        /// sliver of it. An unprivileged thread may lower its policy to this but never raise it again, so only a
        /// thread that keeps it for life should ask for it.
        case idle
    }

    /// The system refused a thread; `errno` says why (`EAGAIN` for a limit reached).
    package struct StartFailure: Error, Sendable {
        /// The error number `pthread_create` returned.
        package let errno: Int32
    }

    private final class Box {
        let name: String?
        let priority: Priority
        let body: @Sendable () -> Void

        init(_ name: String?, _ priority: Priority, _ body: @escaping @Sendable () -> Void) {
            self.name = name
            self.priority = priority
            self.body = body
        }
    }

    /// `SCHED_IDLE` in `<linux/sched.h>`; Glibc's module does not export it.
    private static let idlePolicy: Int32 = 5
    private let handle: pthread_t

    /// Starts `body` on a new thread called `name` (Linux keeps its first 15 bytes; `top -H` and `perf` show it).
    /// Join the thread with ``join()`` or let it go with ``detach()``. When the kernel refuses the idle policy the
    /// thread runs at the normal one.
    /// - Throws: ``StartFailure`` when the system refuses a thread.
    package init(
        name: String? = nil, priority: Priority = .normal, _ body: @escaping @Sendable () -> Void
    ) throws(StartFailure) {
        let box = Unmanaged.passRetained(Box(name, priority, body)).toOpaque()
        var handle = pthread_t()
        let result = pthread_create(
            &handle, nil,
            { argument in
                let box = Unmanaged<Box>.fromOpaque(argument!).takeRetainedValue()
                if let name = box.name { SystemThread.nameCurrentThread(name) }
                if box.priority == .idle {
                    var parameters = sched_param()
                    _ = pthread_setschedparam(pthread_self(), SystemThread.idlePolicy, &parameters)
                }
                box.body()
                return nil
            }, box)
        guard result == 0 else {
            Unmanaged<Box>.fromOpaque(box).release()
            throw StartFailure(errno: result)
        }
        self.handle = handle
    }

    /// Starts `body` on a new thread that nobody joins; it ends when `body` returns.
    /// - Throws: ``StartFailure`` when the system refuses a thread.
    package static func detached(
        name: String? = nil, priority: Priority = .normal, _ body: @escaping @Sendable () -> Void
    ) throws(StartFailure) {
        try SystemThread(name: name, priority: priority, body).detach()
    }

    /// Waits for the thread to end.
    package func join() {
        pthread_join(handle, nil)
    }

    /// Lets the thread end on its own; nobody joins it.
    package func detach() {
        pthread_detach(handle)
    }

    /// Names the calling thread through `/proc`: Glibc's module has no `pthread_setname_np`, and `prctl` is variadic.
    private static func nameCurrentThread(_ name: String) {
        let descriptor = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        let bytes = Array(name.utf8.prefix(15))
        _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    }
}
