import Foundation
import Synchronization

/// The threads every child is started from, each lasting as long as the process.
///
/// A child asks the kernel for a signal when its parent ends (`PR_SET_PDEATHSIG`, see ``SpawnRequest``), and the
/// kernel's parent is the *thread* that started it: a child started from a worker thread that later exits (the
/// concurrency pool and Dispatch retire idle ones; ``offThePool(_:)`` makes one per wait) would be signalled then,
/// with the process still alive. These threads never exit, so the signal comes when the process does.
///
/// Up to ``limit`` of them are started as spawns overlap, so a burst (a test run starting its fixtures) is not
/// started one child at a time while its callers wait, as they did when each spawned on its own thread.
final class SpawningThreads: Sendable {
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

    private struct State {
        var pending: [Job] = []
        var started = 0
        var busy = 0
    }

    private final class Jobs: Sendable {
        let state = Mutex(State())
        let ready = DispatchSemaphore(value: 0)

        func serve() -> Never {
            while true {
                ready.wait()
                let job = state.withLock { state -> Job? in
                    guard !state.pending.isEmpty else { return nil }
                    state.busy += 1
                    return state.pending.removeFirst()
                }
                job?.run()
                if job != nil { state.withLock { $0.busy -= 1 } }
            }
        }
    }

    /// The process's spawning threads, started as needed.
    static let shared = SpawningThreads()
    /// How many threads at most: more spawns at once wait their turn.
    static let limit = 4

    private let jobs = Jobs()

    private init() {}

    /// Starts the child on one of these threads and returns its pid; the caller's thread waits (as long as
    /// starting the child itself would block it, plus one hand-over).
    func spawn(_ request: SpawnRequest) throws(ChildProcessError) -> pid_t {
        let job = Job(request)
        let needsThread = jobs.state.withLock { state in
            state.pending.append(job)
            guard state.pending.count > state.started - state.busy, state.started < Self.limit else { return false }
            state.started += 1
            return true
        }
        if needsThread {
            let thread = Thread { [jobs] in jobs.serve() }
            thread.name = "rk-spawn"
            thread.start()
        }
        jobs.ready.signal()
        job.done.wait()
        return try job.result.withLock { $0! }.get()
    }
}
