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
        async let other = signal.wait(after: seenByB, session: "b", timeout: .seconds(5), clock: clock)
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
}
