/// The runtime's view of time: a monotonic offset from when the clock was made, and sleeping until an offset.
///
/// Wrap any `Clock` whose `Duration` is `Swift.Duration`: `ContinuousClock` in production, a manual clock in tests.
public struct ResolveKitClock: Sendable {
    private let elapsed: @Sendable () -> Duration
    private let sleeper: @Sendable (Duration) async throws -> Void

    /// Wraps `clock`; offsets count from the moment of wrapping.
    public init<C: Clock>(_ clock: C) where C.Duration == Duration {
        let origin = clock.now
        elapsed = { origin.duration(to: clock.now) }
        sleeper = { offset in try await clock.sleep(until: origin.advanced(by: offset), tolerance: nil) }
    }

    /// The real monotonic clock.
    public static var continuous: ResolveKitClock { ResolveKitClock(ContinuousClock()) }

    /// The time elapsed since the clock was made.
    public var now: Duration { elapsed() }

    /// Suspends until ``now`` reaches `deadline`.
    /// - Throws: `CancellationError` when the task is cancelled first.
    public func sleep(until deadline: Duration) async throws {
        try await sleeper(deadline)
    }

    /// Suspends for `duration`.
    /// - Throws: `CancellationError` when the task is cancelled first.
    public func sleep(for duration: Duration) async throws {
        try await sleeper(now + duration)
    }
}
