/// A clock reduced to what the client and leases need: time since it was wrapped, and sleeping until such a time.
/// Production passes `ContinuousClock()`; tests pass a manual clock and move it themselves.
struct RedisTime: Sendable {
    let now: @Sendable () -> Duration
    let sleepUntil: @Sendable (Duration) async throws -> Void

    init<C: Clock>(_ clock: C) where C.Duration == Duration {
        let origin = clock.now
        now = { origin.duration(to: clock.now) }
        sleepUntil = { offset in try await clock.sleep(until: origin.advanced(by: offset), tolerance: nil) }
    }

    /// Sleeps for `duration` from now.
    func sleep(for duration: Duration) async throws {
        try await sleepUntil(now() + duration)
    }

    /// Runs `body` against a time limit: when `limit` passes first, `body` is cancelled and the result is
    /// `timeout` with ``RedisError/mayHaveExecuted`` taken from `body`'s cancellation.
    func race<T: Sendable>(
        _ limit: Duration, timeout: RedisError, _ body: @escaping @Sendable () async throws(RedisError) -> T
    ) async throws(RedisError) -> T {
        let deadline = now() + limit
        let result = await withTaskGroup(of: RaceOutcome<T>.self) { group -> Result<T, RedisError> in
            group.addTask {
                do throws(RedisError) {
                    return .body(.success(try await body()))
                } catch {
                    return .body(.failure(error))
                }
            }
            group.addTask {
                do {
                    try await sleepUntil(deadline)
                    return .timer(fired: true)
                } catch {
                    return .timer(fired: false)
                }
            }
            var timedOut = false
            while let outcome = await group.next() {
                switch outcome {
                case .body(let result):
                    group.cancelAll()
                    guard timedOut, case .failure(let error) = result, error.code == .cancelled else { return result }
                    var expired = timeout
                    expired.mayHaveExecuted = error.mayHaveExecuted
                    return .failure(expired)
                case .timer(let fired):
                    timedOut = fired
                    if fired { group.cancelAll() }
                }
            }
            return .failure(timeout)
        }
        return try result.get()
    }
}

/// Which side of ``RedisTime/race(_:timeout:_:)`` finished.
enum RaceOutcome<T: Sendable>: Sendable {
    case body(Result<T, RedisError>)
    case timer(fired: Bool)
}
