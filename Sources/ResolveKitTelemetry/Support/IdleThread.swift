import Dispatch
import ResolveKitCore
import Synchronization

/// A thread of its own at the kernel's idle priority (`SCHED_IDLE`), running jobs one at a time: telemetry's own
/// work (encoding a batch, posting it) runs here, so on a busy machine it waits for a core that no tool call wants.
///
/// Any other thread that wakes up preempts it at once, and while others run it gets a sliver of a core: exports
/// slow down under load (the bounded queue and the dropped-spans counter say what that cost), the calls do not. A job
/// must hold no lock a call's path takes: if the kernel set the thread aside while it held one, the call would wait
/// for the thread's next sliver (the kernel's priority inheritance does not lift an idle thread).
///
/// Work someone waits for (a flush, the last export at shutdown) runs ``run(urgently:_:)`` on a second thread at the
/// priority of the code that made this one: on a machine whose every core is busy, the idle thread would get a
/// sliver only, and a service asked to stop would drop what it could have sent. That thread is started here, not
/// when first needed: a thread inherits its maker's `nice`, the export loop runs at background priority, and an
/// unprivileged thread cannot raise its priority again. Both threads end once the last reference to this object is
/// gone and the jobs already given have run.
final class IdleThread: Sendable {
    private final class Jobs: Sendable {
        let queue = Mutex<(pending: [@Sendable () -> Void], isClosed: Bool)>(([], false))
        let ready = DispatchSemaphore(value: 0)

        func serve() {
            while true {
                ready.wait()
                let (jobs, isClosed) = queue.withLock { queue in
                    defer { queue.pending = [] }
                    return queue
                }
                jobs.forEach { $0() }
                if isClosed { return }
            }
        }

        func close() {
            queue.withLock { $0.isClosed = true }
            ready.signal()
        }
    }

    /// Jobs for the idle thread, or `nil` when the system refused it (they then run on their caller's thread).
    private let routine: Jobs?
    /// Jobs someone waits for, on the thread at normal priority (or `nil`, as `routine`).
    private let urgent: Jobs?

    /// Starts the two threads, both called `name`.
    init(name: String) {
        routine = Self.start(name: name, priority: .idle)
        urgent = Self.start(name: name, priority: .normal)
    }

    deinit {
        routine?.close()
        urgent?.close()
    }

    /// Runs `body` on the idle thread and returns its value; `urgently`, on the thread at normal priority.
    func run<Value: Sendable>(urgently: Bool = false, _ body: @escaping @Sendable () -> Value) async -> Value {
        guard let jobs = urgently ? urgent : routine else { return body() }
        return await withCheckedContinuation { continuation in
            jobs.queue.withLock { $0.pending.append { continuation.resume(returning: body()) } }
            jobs.ready.signal()
        }
    }

    /// Lets go of `value` on the idle thread: freeing what it holds (an exported batch's thousands of strings and
    /// arrays) then takes no core a call wants, and happens in no lock of the caller's. Pass the last reference.
    func discard<Value: Sendable>(_ value: consuming Value) {
        guard let jobs = routine else { return }
        let held = Held(consume value)
        jobs.queue.withLock { $0.pending.append { held.release() } }
        jobs.ready.signal()
    }

    /// A value owned by one job until it lets it go.
    private final class Held<Value: Sendable>: @unchecked Sendable {
        // Only the job that holds it touches `value` after `init`.
        private var value: Value?

        init(_ value: consuming Value) { self.value = consume value }

        func release() { value = nil }
    }

    private static func start(name: String, priority: SystemThread.Priority) -> Jobs? {
        let jobs = Jobs()
        let started = (try? SystemThread.detached(name: name, priority: priority) { jobs.serve() }) != nil
        return started ? jobs : nil
    }
}
