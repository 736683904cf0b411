import Dispatch
import ResolveKitCore
import Synchronization

/// A thread of its own at the kernel's idle priority (`SCHED_IDLE`), running jobs one at a time: telemetry's own
/// work (encoding a batch, posting it) runs here, so on a busy machine it waits for a core that no tool call wants.
///
/// Any other thread that wakes up preempts it at once, and while others run it gets a sliver of a core: exports
/// slow down under load (the bounded queue and the dropped-spans counter say what that cost), the calls do not. A job
/// must hold no lock a call's path takes: if the kernel set the thread aside while it held one, the call would wait
/// for the thread's next sliver (the kernel's priority inheritance does not lift an idle thread). The thread ends
/// once the last reference to it is gone and the jobs already given have run.
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
    }

    private let jobs = Jobs()
    private let started: Bool

    /// Starts the thread, called `name`. When the system refuses a thread, jobs run on their caller's.
    init(name: String) {
        let jobs = jobs
        started = (try? SystemThread.detached(name: name, priority: .idle) { jobs.serve() }) != nil
    }

    deinit {
        jobs.queue.withLock { $0.isClosed = true }
        jobs.ready.signal()
    }

    /// Runs `body` on the thread and returns its value.
    func run<Value: Sendable>(_ body: @escaping @Sendable () -> Value) async -> Value {
        guard started else { return body() }
        return await withCheckedContinuation { continuation in
            jobs.queue.withLock { $0.pending.append { continuation.resume(returning: body()) } }
            jobs.ready.signal()
        }
    }
}
