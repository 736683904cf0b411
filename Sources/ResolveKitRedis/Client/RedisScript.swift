import Synchronization

/// A Lua script run with `EVALSHA`: loaded once per client with `SCRIPT LOAD`, loaded again when the server answers
/// `NOSCRIPT` (it restarted or flushed its script cache; scripts are not in the AOF).
///
/// `NOSCRIPT` means the script did not run, so sending it again is safe; any other failure is the caller's.
public struct RedisScript: Sendable, Hashable {
    /// A name for errors and logs, e.g. `lease-acquire`.
    public var name: String
    /// The Lua source.
    public var source: String

    /// Creates a script.
    public init(name: String, source: String) {
        self.name = name
        self.source = source
    }
}

extension RedisClient {
    /// Runs `script` with `keys` and `arguments`.
    ///
    /// - Returns: The script's reply.
    /// - Throws: ``RedisError``: a script's `redis.error_reply` is ``RedisError/Code/serverError`` with the reply's
    ///   first word as ``RedisError/serverPrefix``; connection failures as for ``send(_:)``.
    public func evaluate(_ script: RedisScript, keys: [String], arguments: [String]) async throws(RedisError)
        -> RESPValue
    {
        var loadedNow = false
        var sha = state.withLock { $0.scripts[script.source] }
        if sha == nil {
            sha = try await load(script)
            loadedNow = true
        }
        while true {
            let parts = [String(keys.count)] + keys + arguments
            let reply = try await exchange([RedisCommand("EVALSHA", arguments: [sha ?? ""] + parts)])[0]
            guard let message = reply.errorMessage else { return reply }
            guard message.hasPrefix("NOSCRIPT"), !loadedNow else {
                throw RedisError.reply(message, to: "the \(script.name) script")
            }
            sha = try await load(script)
            loadedNow = true
        }
    }

    private func load(_ script: RedisScript) async throws(RedisError) -> String {
        let reply = try await send(RedisCommand("SCRIPT", "LOAD", script.source))
        guard let sha = reply.string, sha.count == 40 else {
            throw RedisError(.protocolViolation, "SCRIPT LOAD of the \(script.name) script answered \(reply)")
        }
        state.withLock { $0.scripts[script.source] = sha }
        return sha
    }
}
