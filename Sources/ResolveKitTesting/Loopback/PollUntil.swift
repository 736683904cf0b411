/// Checks `condition` every 2 ms until it holds or `timeout` passes, for tests waiting on a real network event
/// (a connection closing, a transfer pausing) rather than on a timer. The default leaves room for a machine busy
/// with a whole parallel test run: a condition that holds returns as soon as it does, so only a failure waits it out.
/// Returns at once (with the condition's current value) when the task is cancelled.
/// - Returns: whether the condition held in time.
public func pollUntil(timeout: Duration = .seconds(20), _ condition: () -> Bool) async -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: timeout)
    while !condition() {
        guard clock.now < deadline, !Task.isCancelled else { return condition() }
        try? await Task.sleep(for: .milliseconds(2))
    }
    return true
}

/// Sleeps `duration` even when the calling task is cancelled, for clean-up that must wait for a process to end.
///
/// A cancelled task's `Task.sleep` throws at once without suspending, so a loop around it never gives its thread
/// back: on a two-core machine two such loops hold every thread of the concurrency pool, and the whole test run
/// stalls until their deadlines. The sleep runs in a task of its own, which the caller's cancellation does not reach.
public func sleepThroughCancellation(for duration: Duration) async {
    await Task { try? await Task.sleep(for: duration) }.value
}
