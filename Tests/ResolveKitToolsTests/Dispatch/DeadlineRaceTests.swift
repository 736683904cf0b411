import ResolveKitTesting
import Testing

@testable import ResolveKitTools

/// A race started on an actor and awaited later: the work starts before `start` returns, an outcome that comes
/// before anyone waits is kept, the deadline and cancellation each settle it once.
@Suite(.timeLimit(.minutes(1)))
struct DeadlineRaceTests {
    @Test func theOperationRunsBeforeAnyoneWaitsAndItsOutcomeIsKept() async {
        let clock = ManualClock()
        let (ran, ranContinuation) = AsyncStream<Void>.makeStream()
        let running = DeadlineRace<Int>(clock: ResolveKitClock(clock)).start(until: .seconds(10)) {
            ranContinuation.yield()
            return 42
        }
        // Nobody waits for the race yet, and its operation runs.
        for await _ in ran { break }
        guard case .finished(.success(let value)) = await running.result() else {
            Issue.record("the race did not finish with the operation's value")
            return
        }
        #expect(value == 42)
        // The timer lost and was cancelled.
        await clock.waitForSleepers { $0.isEmpty }
    }

    @Test func theDeadlineEndsARaceWhoseOperationIgnoresCancellation() async {
        let clock = ManualClock()
        let release = ManualClock()
        let running = DeadlineRace<Int>(clock: ResolveKitClock(clock)).start(until: .seconds(5)) {
            try? await release.sleep(until: .init(offset: .seconds(1)))
            return 1
        }
        await clock.waitForSleepers(count: 1)
        clock.advance(by: .seconds(5))
        guard case .timedOut = await running.result() else {
            Issue.record("the race did not time out")
            return
        }
        release.advance(by: .seconds(1))
    }

    @Test func cancelSettlesTheRaceAsCancelledOnce() async {
        let clock = ManualClock()
        let running = DeadlineRace<Int>(clock: ResolveKitClock(clock)).start(until: .seconds(5)) {
            try await Task.sleep(for: .seconds(60))
            return 1
        }
        running.cancel()
        running.cancel()
        guard case .cancelled = await running.result() else {
            Issue.record("the race was not cancelled")
            return
        }
        await clock.waitForSleepers { $0.isEmpty }
    }
}
