import Glibc

/// Measures the CPU time of the calling thread, so figures stay comparable on a machine shared with other work
/// (wall time would count the time the scheduler gave to other processes).
enum CPUTime {
    /// Runs `body` and returns its result and the thread CPU seconds it took.
    static func measure<T>(_ body: () -> T) -> (T, Double) {
        let start = now()
        let result = body()
        return (result, now() - start)
    }

    static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
