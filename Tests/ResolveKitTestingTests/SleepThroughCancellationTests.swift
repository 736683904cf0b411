import ResolveKitTesting
import Testing

/// Clean-up that waits for a process to end still waits in a cancelled task, instead of spinning through sleeps
/// that return at once and holding a thread of the pool.
struct SleepThroughCancellationTests {
    @Test func aCancelledTaskStillSleepsAndAPlainSleepDoesNot() async {
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            let clock = ContinuousClock()
            let plain = await clock.measure { try? await Task.sleep(for: .milliseconds(50)) }
            let through = await clock.measure { await sleepThroughCancellation(for: .milliseconds(50)) }
            return (plain, through)
        }
        let (plain, through) = await task.value
        #expect(plain < .milliseconds(25), "a cancelled task's sleep returns at once")
        #expect(through >= .milliseconds(50))
    }
}
