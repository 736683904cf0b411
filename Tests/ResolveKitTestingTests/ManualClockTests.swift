import ResolveKitTesting
import Testing

@Suite(.timeLimit(.minutes(1)))
struct ManualClockTests {
    @Test func aSleepResumesOnlyWhenTimeReachesItsDeadline() async throws {
        let clock = ManualClock()
        try await withThrowingTaskGroup(of: ManualClock.Instant.self) { group in
            group.addTask {
                try await clock.sleep(for: .seconds(5))
                return clock.now
            }
            await clock.waitForSleepers(count: 1)
            clock.advance(by: .seconds(4))
            #expect(clock.sleeperCount == 1)
            clock.advance(by: .seconds(1))
            let woken = try await group.next()
            #expect(woken == ManualClock.Instant(offset: .seconds(5)))
        }
    }

    @Test func aSleepWhoseDeadlineHasPassedReturnsAtOnce() async throws {
        let clock = ManualClock(now: ManualClock.Instant(offset: .seconds(10)))
        try await clock.sleep(until: ManualClock.Instant(offset: .seconds(3)), tolerance: nil)
        try await clock.sleep(for: .zero)
        #expect(clock.sleeperCount == 0)
    }

    @Test func advancingPastSeveralDeadlinesResumesThemAll() async throws {
        let clock = ManualClock()
        try await withThrowingTaskGroup(of: Int.self) { group in
            for seconds in [3, 1, 2] {
                group.addTask {
                    try await clock.sleep(for: .seconds(seconds))
                    return seconds
                }
            }
            await clock.waitForSleepers(count: 3)
            #expect(clock.pendingDeadlines.map(\.offset) == [.seconds(1), .seconds(2), .seconds(3)])
            clock.advance(to: ManualClock.Instant(offset: .seconds(2)))
            let first = try await group.next()
            let second = try await group.next()
            #expect([first, second].compactMap { $0 }.sorted() == [1, 2])
            #expect(clock.sleeperCount == 1)
            clock.advance(by: .seconds(10))
            let last = try await group.next()
            #expect(last == 3)
        }
    }

    @Test func cancellingASleeperThrowsCancellationErrorWithoutAdvancing() async {
        let clock = ManualClock()
        let sleeper = Task { try await clock.sleep(for: .seconds(60)) }
        await clock.waitForSleepers(count: 1)
        sleeper.cancel()
        await #expect(throws: CancellationError.self) { try await sleeper.value }
        #expect(clock.sleeperCount == 0)
        #expect(clock.now == ManualClock.Instant(offset: .zero))
    }

    @Test func aTaskCancelledBeforeSleepingThrowsImmediately() async {
        let clock = ManualClock()
        await withTaskGroup(of: Void.self) { group in
            group.cancelAll()
            group.addTask {
                await #expect(throws: CancellationError.self) { try await clock.sleep(for: .seconds(1)) }
            }
        }
        #expect(clock.sleeperCount == 0)
    }

    @Test func cancellingAWaitForATimerThatNeverComesReturnsAndLeavesOtherWaitsAlone() async {
        let clock = ManualClock()
        let abandoned = Task {
            await clock.waitForSleeper(at: clock.now.advanced(by: .seconds(10)))
            return Task.isCancelled
        }
        let kept = Task { await clock.waitForSleepers(count: 1) }
        abandoned.cancel()
        #expect(await abandoned.value)
        let sleeper = Task { try await clock.sleep(for: .seconds(5)) }
        await kept.value
        sleeper.cancel()
    }

    @Test func aTaskCancelledBeforeWaitingForSleepersReturnsAtOnce() async {
        let clock = ManualClock()
        await withTaskGroup(of: Void.self) { group in
            group.cancelAll()
            group.addTask { await clock.waitForSleepers(count: 1) }
        }
        #expect(clock.sleeperCount == 0)
    }

    @Test func timeNeverMovesBackwards() {
        let clock = ManualClock()
        clock.advance(by: .seconds(5))
        clock.advance(to: ManualClock.Instant(offset: .seconds(2)))
        #expect(clock.now.offset == .seconds(5))
    }

    @Test func instantsMeasureTheDurationBetweenThem() {
        let start = ManualClock.Instant(offset: .seconds(1))
        #expect(start.advanced(by: .milliseconds(1500)).offset == .milliseconds(2500))
        #expect(start.duration(to: ManualClock.Instant(offset: .seconds(4))) == .seconds(3))
        #expect(start < start.advanced(by: .nanoseconds(1)))
    }
}
