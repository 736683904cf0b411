import Foundation
import Synchronization

/// The one thread every child is started from, for the life of the process.
///
/// A child asks the kernel for a signal when its parent ends (`PR_SET_PDEATHSIG`, see ``SpawnRequest``), and the
/// kernel's parent is the *thread* that started it: a child started from a worker thread that later exits (the
/// concurrency pool and Dispatch retire idle ones; ``offThePool(_:)`` makes one per wait) would be signalled then,
/// with the process still alive. This thread never exits, so the signal comes when the process does.
final class SpawningThread: Sendable {
    private final class Job: Sendable {
        let request: SpawnRequest
        let done = DispatchSemaphore(value: 0)
        let result = Mutex<Result<pid_t, ChildProcessError>?>(nil)

        init(_ request: SpawnRequest) {
            self.request = request
        }

        func run() {
            result.withLock { $0 = Result { () throws(ChildProcessError) in try request.spawn() } }
            done.signal()
        }
    }

    private final class Jobs: Sendable {
        let pending = Mutex<[Job]>([])
        let ready = DispatchSemaphore(value: 0)

        func serve() -> Never {
            while true {
                ready.wait()
                for job in pending.withLock({ pending in defer { pending = [] }; return pending }) { job.run() }
            }
        }
    }

    /// The process's spawning thread, started on first use.
    static let shared = SpawningThread()

    private let jobs = Jobs()

    private init() {
        let thread = Thread { [jobs] in jobs.serve() }
        thread.name = "rk-spawn"
        thread.start()
    }

    /// Starts the child on this thread and returns its pid; the caller's thread waits (as long as `posix_spawn`
    /// itself would block it, plus one hand-over).
    func spawn(_ request: SpawnRequest) throws(ChildProcessError) -> pid_t {
        let job = Job(request)
        jobs.pending.withLock { $0.append(job) }
        jobs.ready.signal()
        job.done.wait()
        return try job.result.withLock { $0! }.get()
    }
}
