import ResolveKitRedis
import ResolveKitTesting

/// The suite's `redis-server`: ``RedisServerProcess`` from ResolveKitTesting, shared with the runtime's tests and
/// the benchmarks.
typealias RedisTestServer = RedisServerProcess

extension RedisServerProcess {
    /// A client of this server on the continuous clock.
    func client(
        url: String? = nil, clientName: String? = nil, commandTimeout: Duration = .seconds(5),
        protocolVersion: RedisConfiguration.ProtocolVersion = .resp3
    ) throws -> RedisClient {
        var configuration = try RedisConfiguration(url: url ?? self.url, clientName: clientName)
        configuration.commandTimeout = commandTimeout
        configuration.connectTimeout = min(commandTimeout, configuration.connectTimeout)
        configuration.protocolVersion = protocolVersion
        return RedisClient(configuration: configuration)
    }
}

/// Checks an async `condition` every 5 ms until it holds or `timeout` passes, for a real server's state (20 s by
/// default, for a machine busy with the whole suite: a condition that holds returns as soon as it does).
func eventually(timeout: Duration = .seconds(20), _ condition: () async -> Bool) async -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: timeout)
    while await !condition() {
        guard clock.now < deadline, !Task.isCancelled else { return false }
        try? await Task.sleep(for: .milliseconds(5))
    }
    return true
}

/// What `body` returned or threw, so a test can start it with `async let` and look at the error later.
func outcome<T: Sendable>(_ body: () async throws(RedisError) -> T) async -> Result<T, RedisError> {
    do throws(RedisError) {
        return .success(try await body())
    } catch {
        return .failure(error)
    }
}

extension Result {
    /// The error, or `nil` on success.
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
