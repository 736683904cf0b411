import Synchronization
import Testing

@testable import ResolveKitTesting

/// The reference backend's wake-ups: a stream or a turn waiting on its session is woken by its own session's
/// changes and by changes to every session, never by another session's, and its wait ends at its timeout.
@Suite(.timeLimit(.minutes(1)))
struct ChangeSignalTests {
    @Test func aChangeWakesItsSessionsWaitersAndNotAnotherSessions() async {
        let signal = ChangeSignal()
        let clock = ManualClock()
        let seenByA = signal.generation(of: "a")
        let seenByB = signal.generation(of: "b")
        async let woken = signal.wait(after: seenByA, session: "a")
        async let other = signal.wait(
            after: seenByB, session: "b", until: WaitDeadline(in: .seconds(5), clock: clock))
        await clock.waitForSleepers(count: 1)
        signal.notify(session: "a")
        #expect(await woken)
        // "b" saw no change of its own: it is still waiting, and ends at its timeout.
        #expect(signal.generation(of: "b") == seenByB)
        clock.advance(by: .seconds(5))
        #expect(await other == false)
    }

    @Test func aChangeToNoSessionWakesEverySession() async {
        let signal = ChangeSignal()
        let seen = (a: signal.generation(of: "a"), b: signal.generation(of: "b"), any: signal.generation)
        async let a = signal.wait(after: seen.a, session: "a")
        async let b = signal.wait(after: seen.b, session: "b")
        async let any = signal.wait(after: seen.any)
        signal.notify()
        #expect(await [a, b, any] == [true, true, true])
    }

    @Test func aChangeBeforeTheWaitIsNotMissed() async {
        let signal = ChangeSignal()
        let seen = signal.generation(of: "a")
        signal.notify(session: "a")
        #expect(await signal.wait(after: seen, session: "a"))
        // Another session's change leaves "a"'s generation alone, and wakes a waiter on any session.
        let seenAny = signal.generation
        let seenA = signal.generation(of: "a")
        signal.notify(session: "b")
        #expect(signal.generation(of: "a") == seenA)
        #expect(await signal.wait(after: seenAny))
    }

    @Test func cancellingAWaitEndsIt() async {
        let signal = ChangeSignal()
        let waiting = Task { await signal.wait(after: signal.generation(of: "a"), session: "a") }
        waiting.cancel()
        #expect(await waiting.value == false)
    }

    @Test func waitsUntilOneDeadlineShareItsSleepAndEndWhenItPasses() async {
        let (signal, clock, deadline) = await Self.deadlineAfterAWokenWait()
        // A second wait on the same deadline ends when the first wait's sleep does.
        let seen = signal.generation(of: "a")
        async let second = signal.wait(after: seen, session: "a", until: deadline)
        #expect(clock.pendingDeadlines == [.init(offset: .seconds(5))])
        clock.advance(by: .seconds(5))
        #expect(await second == false)
        #expect(deadline.hasPassed)
        #expect(await signal.wait(after: seen, session: "a", until: deadline) == false)
    }

    @Test func aDeadlineMovedLaterIsSleptOnToAndOneMovedEarlierGetsItsOwnSleep() async {
        let (signal, clock, deadline) = await Self.deadlineAfterAWokenWait()
        clock.advance(by: .seconds(3))
        deadline.move(to: .seconds(5))
        async let later = signal.wait(after: signal.generation(of: "a"), session: "a", until: deadline)
        // The sleep until 5 s wakes, finds the deadline at 8 s and sleeps on: the wait is still waiting.
        clock.advance(by: .seconds(2))
        await clock.waitForSleeper(at: .init(offset: .seconds(8)))
        clock.advance(by: .seconds(3))
        #expect(await later == false)
        deadline.move(to: .seconds(60))
        async let far = signal.wait(after: signal.generation(of: "a"), session: "a", until: deadline)
        await clock.waitForSleeper(at: .init(offset: .seconds(68)))
        signal.notify(session: "a")
        #expect(await far)
        // Moved before the sleep's end: a sleep until the new deadline replaces it.
        deadline.move(to: .seconds(1))
        async let earlier = signal.wait(after: signal.generation(of: "a"), session: "a", until: deadline)
        await clock.waitForSleeper(at: .init(offset: .seconds(9)))
        clock.advance(by: .seconds(1))
        #expect(await earlier == false)
        await clock.waitForSleepers { $0.isEmpty }
    }

    /// A deadline 5 s away on a manual clock whose first wait a change ended: its sleep until 5 s goes on.
    private static func deadlineAfterAWokenWait() async -> (ChangeSignal, ManualClock, WaitDeadline) {
        let signal = ChangeSignal()
        let clock = ManualClock()
        let deadline = WaitDeadline(in: .seconds(5), clock: clock)
        async let first = signal.wait(after: signal.generation(of: "a"), session: "a", until: deadline)
        await clock.waitForSleeper(at: .init(offset: .seconds(5)))
        signal.notify(session: "a")
        #expect(await first)
        return (signal, clock, deadline)
    }
}
