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
