import Glibc

/// `CLOCK_MONOTONIC` in nanoseconds: one clock for every process on the machine, so a time taken in the backend
/// child and one taken here can be subtracted.
enum MonotonicTime {
    private static let base: (instant: ContinuousClock.Instant, nanoseconds: Int64) = (ContinuousClock.now, now())

    /// Now.
    static func now() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }

    /// `instant` of this process's `ContinuousClock` on the shared clock.
    static func nanoseconds(_ instant: ContinuousClock.Instant) -> Int64 {
        let offset = base.instant.duration(to: instant).components
        return base.nanoseconds + offset.seconds * 1_000_000_000 + offset.attoseconds / 1_000_000_000
    }
}
