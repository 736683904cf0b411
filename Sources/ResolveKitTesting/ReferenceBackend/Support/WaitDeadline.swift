import Synchronization

/// A deadline that a loop's waits share (``ChangeSignal/wait(after:session:until:)``): one sleeping task serves every
/// wait until it passes. A timeout per wait started a timer and cancelled it at every wake-up (a task, a
/// `dispatch_after` and two wake-ups of libdispatch's timer thread each time), about a sixth of the backend's CPU
/// when many sessions are busy. Moving the deadline later costs nothing: the sleeping task, when it wakes, sleeps on to
/// the new deadline.
final class WaitDeadline: Sendable {
    private struct State {
        /// When it passes, as time since the deadline was created.
        var deadline: Duration
        /// What the sleeping task sleeps until; `nil` while none sleeps.
        var sleepingUntil: Duration?
        var sleeper: Task<Void, Never>?
        /// Counts the sleeps started: one replaced by an earlier deadline's may still wake, and must change nothing.
        var sleeps = 0
        /// Ends the wait in progress as timed out.
        var onPassed: (@Sendable () -> Void)?
    }

    private enum Woken {
        case sleepAgain(until: Duration)
        case passed((@Sendable () -> Void)?)
        /// A later sleep took over.
        case replaced
    }

    private let now: @Sendable () -> Duration
    private let sleep: @Sendable (Duration) async throws -> Void
    private let state: Mutex<State>

    /// A deadline `duration` from now on `clock`.
    init<C: Clock<Duration>>(in duration: Duration, clock: C) {
        let origin = clock.now
        now = { origin.duration(to: clock.now) }
        sleep = { deadline in try await clock.sleep(until: origin.advanced(by: deadline), tolerance: nil) }
        state = Mutex(State(deadline: duration))
    }

    deinit {
        state.withLock { $0.sleeper }?.cancel()
    }

    /// Whether the deadline has passed.
    var hasPassed: Bool {
        let deadline = state.withLock { $0.deadline }
        return now() >= deadline
    }

    /// Moves the deadline to `duration` from now.
    func move(to duration: Duration) {
        let deadline = now() + duration
        state.withLock { $0.deadline = deadline }
    }

    /// Calls `passed` once the deadline passes (at once if it has), unless another wait registers first.
    func whenPassed(_ passed: @escaping @Sendable () -> Void) {
        let current = now()
        let (call, stale) = state.withLock { state -> (Bool, Task<Void, Never>?) in
            guard state.deadline > current else { return (true, nil) }
            state.onPassed = passed
            if let sleepingUntil = state.sleepingUntil, sleepingUntil <= state.deadline { return (false, nil) }
            // No task sleeps, or one sleeps past the deadline (it was moved earlier): start one for it.
            let stale = state.sleeper
            state.sleeps += 1
            state.sleepingUntil = state.deadline
            state.sleeper = startSleeper(until: state.deadline, number: state.sleeps)
            return (false, stale)
        }
        stale?.cancel()
        if call { passed() }
    }

    private func startSleeper(until first: Duration, number: Int) -> Task<Void, Never> {
        Task { [weak self, sleep] in
            var until = first
            while true {
                do { try await sleep(until) } catch { return }
                guard let self else { return }
                switch self.woke(at: until, number: number) {
                case .sleepAgain(let later): until = later
                case .passed(let passed):
                    passed?()
                    return
                case .replaced:
                    return
                }
            }
        }
    }

    private func woke(at time: Duration, number: Int) -> Woken {
        state.withLock { state in
            guard number == state.sleeps else { return .replaced }
            if state.deadline > time {
                state.sleepingUntil = state.deadline
                return .sleepAgain(until: state.deadline)
            }
            state.sleepingUntil = nil
            state.sleeper = nil
            defer { state.onPassed = nil }
            return .passed(state.onPassed)
        }
    }
}
