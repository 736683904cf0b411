import Synchronization

/// A clock that moves only when a test tells it to, so timers can be tested without waiting.
///
/// Code under test sleeps on it like on any `Clock`; the test calls ``waitForSleepers(count:)`` to know the code
/// has reached its timer, then ``advance(by:)`` to fire it. Sleeps whose deadline has already passed return at
/// once; a cancelled sleep throws `CancellationError` promptly.
///
/// ```swift
/// let clock = ManualClock()
/// async let fired: Void = clock.sleep(for: .seconds(5))
/// await clock.waitForSleepers(count: 1)
/// clock.advance(by: .seconds(5))
/// try await fired
/// ```
public final class ManualClock: Clock, Sendable {
    /// A point on the manual time line: the time elapsed since the clock's origin.
    public struct Instant: InstantProtocol, Sendable, Hashable, CustomStringConvertible {
        /// The time since the origin.
        public var offset: Duration

        /// Creates an instant at `offset` from the origin.
        ///
        /// - Parameter offset: The time since the origin.
        public init(offset: Duration) { self.offset = offset }

        /// The instant `duration` later.
        ///
        /// - Parameter duration: How far to move; negative moves back.
        public func advanced(by duration: Duration) -> Self { Self(offset: offset + duration) }

        /// The time from this instant to `other`.
        ///
        /// - Parameter other: The later (or earlier) instant.
        public func duration(to other: Self) -> Duration { other.offset - offset }

        /// Whether `lhs` is earlier than `rhs`.
        public static func < (lhs: Self, rhs: Self) -> Bool { lhs.offset < rhs.offset }

        /// The offset, e.g. `2.5 seconds`.
        public var description: String { offset.description }
    }

    struct Sleeper {
        var deadline: Instant
        var continuation: CheckedContinuation<Void, any Error>
    }

    struct Waiter {
        var condition: @Sendable ([Instant]) -> Bool
        var continuation: CheckedContinuation<Void, Never>
    }

    struct State {
        var now: Instant
        /// Numbers sleepers and waiters alike.
        var nextID = 0
        var sleepers: [Int: Sleeper] = [:]
        var waiters: [Int: Waiter] = [:]
        /// Sleepers and waiters cancelled before they were registered.
        var cancelled: Set<Int> = []

        mutating func takeID() -> Int {
            defer { nextID += 1 }
            return nextID
        }

        /// Removes and returns the waiters whose condition on the sleepers' deadlines holds, oldest first.
        mutating func takeSatisfiedWaiters() -> [CheckedContinuation<Void, Never>] {
            let deadlines = sleepers.values.map(\.deadline)
            let ready = waiters.filter { $0.value.condition(deadlines) }.sorted { $0.key < $1.key }
            for (id, _) in ready { waiters.removeValue(forKey: id) }
            return ready.map(\.value.continuation)
        }
    }

    let state: Mutex<State>

    /// Creates a clock.
    ///
    /// - Parameter now: The starting instant; the origin by default.
    public init(now: Instant = Instant(offset: .zero)) {
        state = Mutex(State(now: now))
    }

    /// The current manual time.
    public var now: Instant { state.withLock { $0.now } }

    /// Zero: manual time has no granularity.
    public var minimumResolution: Duration { .zero }

    /// How many sleeps are suspended right now.
    public var sleeperCount: Int { state.withLock { $0.sleepers.count } }

    /// The deadlines of the suspended sleeps, earliest first.
    public var pendingDeadlines: [Instant] { state.withLock { $0.sleepers.values.map(\.deadline).sorted() } }

    /// Suspends until the clock is advanced to `deadline` or beyond.
    ///
    /// - Parameters:
    ///   - deadline: When to resume.
    ///   - tolerance: Ignored.
    /// - Throws: `CancellationError` when the calling task is cancelled first.
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        let id = state.withLock { $0.takeID() }
        defer { state.withLock { _ = $0.cancelled.remove(id) } }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                enum Outcome { case cancelled, due, suspended([CheckedContinuation<Void, Never>]) }
                let outcome = state.withLock { state -> Outcome in
                    if state.cancelled.contains(id) { return .cancelled }
                    if deadline <= state.now { return .due }
                    state.sleepers[id] = Sleeper(deadline: deadline, continuation: continuation)
                    return .suspended(state.takeSatisfiedWaiters())
                }
                switch outcome {
                case .cancelled: continuation.resume(throwing: CancellationError())
                case .due: continuation.resume()
                case .suspended(let waiters): waiters.forEach { $0.resume() }
                }
            }
        } onCancel: {
            let sleeper = state.withLock { state in
                state.cancelled.insert(id)
                return state.sleepers.removeValue(forKey: id)
            }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves time forward by `duration` and resumes every sleep that became due, earliest deadline first.
    ///
    /// - Parameter duration: How far to move; must not be negative.
    public func advance(by duration: Duration) {
        precondition(duration >= .zero, "ManualClock cannot move backwards")
        advance(to: now.advanced(by: duration))
    }

    /// Moves time to `instant` (never backwards) and resumes every sleep that became due, earliest first.
    ///
    /// - Parameter instant: The new current time; an earlier instant leaves the time unchanged.
    public func advance(to instant: Instant) {
        let due = state.withLock { state in
            state.now = max(state.now, instant)
            let now = state.now
            let due = state.sleepers.filter { $0.value.deadline <= now }.sorted {
                ($0.value.deadline, $0.key) < ($1.value.deadline, $1.key)
            }
            for (id, _) in due { state.sleepers.removeValue(forKey: id) }
            return due.map(\.value.continuation)
        }
        due.forEach { $0.resume() }
    }

    /// Returns once at least `count` sleeps are suspended on this clock, or when the calling task is cancelled.
    ///
    /// Use it before ``advance(by:)`` so the code under test has really reached its timer. It waits on a
    /// continuation, not by polling; give the calling test a time limit.
    ///
    /// - Parameter count: How many suspended sleeps to wait for.
    public func waitForSleepers(count: Int) async {
        await waitForSleepers { $0.count >= count }
    }

    /// Returns once some sleep is suspended until exactly `deadline` (the timer of interest has been armed), or
    /// when the calling task is cancelled.
    ///
    /// Prefer it to ``waitForSleepers(count:)`` when other timers (watchdogs, refreshes) sleep on the same clock.
    public func waitForSleeper(at deadline: Instant) async {
        await waitForSleepers { $0.contains(deadline) }
    }

    /// Returns once `condition` holds for the deadlines of the suspended sleeps, or when the calling task is
    /// cancelled (check `Task.isCancelled` if it matters which); waits on a continuation.
    ///
    /// Returning on cancellation lets a helper task that waits for a timer which never comes be cancelled; it
    /// would otherwise stay suspended, and keep what it holds alive, until the process exits.
    public func waitForSleepers(where condition: @escaping @Sendable ([Instant]) -> Bool) async {
        let id = state.withLock { $0.takeID() }
        defer { state.withLock { _ = $0.cancelled.remove(id) } }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let done = state.withLock { state in
                    if state.cancelled.contains(id) || condition(state.sleepers.values.map(\.deadline)) { return true }
                    state.waiters[id] = Waiter(condition: condition, continuation: continuation)
                    return false
                }
                if done { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLock { state in
                state.cancelled.insert(id)
                return state.waiters.removeValue(forKey: id)
            }
            waiter?.continuation.resume()
        }
    }
}
