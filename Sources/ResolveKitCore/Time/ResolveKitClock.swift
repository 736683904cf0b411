/// The runtime's clock: any `Clock` with `Swift.Duration` (`ContinuousClock` in production, a manual clock in
/// tests) seen as offsets from the moment it was wrapped.
public struct ResolveKitClock: Clock, Sendable {
    /// A point in time: the offset from when the clock was wrapped.
    public struct Instant: InstantProtocol, Sendable {
        /// Time since the clock was wrapped.
        public var offset: Duration

        /// Creates an instant.
        public init(offset: Duration) { self.offset = offset }
        /// The instant `duration` later.
        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        /// The duration from this instant to `other`.
        public func duration(to other: Instant) -> Duration { other.offset - offset }
        /// Orders instants.
        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private let elapsedTime: @Sendable () -> Duration
    private let sleeper: @Sendable (Duration) async throws -> Void
    /// The wrapped clock's resolution.
    public let minimumResolution: Duration

    /// Wraps `clock`; offsets count from the moment of wrapping.
    public init<C: Clock>(_ clock: C) where C.Duration == Duration {
        let origin = clock.now
        elapsedTime = { origin.duration(to: clock.now) }
        sleeper = { offset in try await clock.sleep(until: origin.advanced(by: offset), tolerance: nil) }
        minimumResolution = clock.minimumResolution
    }

    /// The real monotonic clock.
    public static var continuous: ResolveKitClock { ResolveKitClock(ContinuousClock()) }

    /// Now.
    public var now: Instant { Instant(offset: elapsedTime()) }

    /// The time elapsed since the clock was wrapped.
    public var elapsed: Duration { elapsedTime() }

    /// Suspends until `deadline`.
    /// - Throws: `CancellationError` when the task is cancelled first.
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        try await sleeper(deadline.offset)
    }

    /// Suspends until ``elapsed`` reaches `offset`.
    /// - Throws: `CancellationError` when the task is cancelled first.
    public func sleep(untilElapsed offset: Duration) async throws {
        try await sleeper(offset)
    }
}
