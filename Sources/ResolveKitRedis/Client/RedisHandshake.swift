/// What a new connection says before its first command: `HELLO 3` (with `AUTH` and `SETNAME` in it), falling back to
/// RESP2's `AUTH` and `CLIENT SETNAME` when the server does not know `HELLO`; then `SELECT` when the database is not 0.
enum RedisHandshake {
    /// Runs the handshake on `connection`.
    ///
    /// - Returns: The protocol spoken: 3 or 2.
    /// - Throws: ``RedisError`` with ``RedisError/Code/authFailed`` when the credentials are refused (the password is
    ///   never in the message), ``RedisError/Code/serverError`` when `SELECT` or `CLIENT SETNAME` is refused.
    static func perform(on connection: RedisConnection, _ configuration: RedisConfiguration) async throws(RedisError)
        -> Int
    {
        let url = configuration.url
        var version = 2
        if configuration.protocolVersion == .resp3 {
            var hello = ["3"]
            if let password = url.password { hello += ["AUTH", url.user ?? "default", password] }
            if let name = configuration.clientName { hello += ["SETNAME", name] }
            let reply = try await connection.send([RedisCommand("HELLO", arguments: hello)])[0]
            if let message = reply.errorMessage {
                guard isUnknownHello(message) else { throw refusal(message, url: url, during: "HELLO") }
            } else {
                version = 3
            }
        }
        var commands: [RedisCommand] = []
        if version == 2, let password = url.password {
            commands.append(url.user.map { RedisCommand("AUTH", $0, password) } ?? RedisCommand("AUTH", password))
        }
        if version == 2, let name = configuration.clientName {
            commands.append(RedisCommand("CLIENT", "SETNAME", name))
        }
        if url.database != 0 { commands.append(RedisCommand("SELECT", String(url.database))) }
        let replies = try await connection.send(commands)
        for (command, reply) in zip(commands, replies) {
            guard let message = reply.errorMessage else { continue }
            throw refusal(message, url: url, during: command.name)
        }
        return version
    }

    /// A server before Redis 6 answers `HELLO` with an unknown-command error; one that knows it but not the
    /// version answers `NOPROTO`.
    static func isUnknownHello(_ message: String) -> Bool {
        message.hasPrefix("NOPROTO") || message.lowercased().contains("unknown command")
    }

    static func refusal(_ message: String, url: RedisURL, during command: String) -> RedisError {
        let prefix = String(message.prefix { $0 != " " })
        let isAuth =
            ["WRONGPASS", "NOAUTH", "NOPERM"].contains(prefix) || command == "AUTH"
            || message.lowercased().contains("password")
        guard isAuth else {
            let what = command == "SELECT" ? "database \(url.database)" : command
            return RedisError(
                .serverError, "Redis refused \(what) while connecting: \(message)", serverPrefix: prefix)
        }
        let who = url.user.map { "user '\($0)'" } ?? "the default user"
        let hint =
            url.password == nil
            ? "the server requires a password: put it in the URL, redis://user:password@host:port"
            : "check the user and password in the URL"
        return RedisError(
            .authFailed, "Redis refused the login of \(who): \(message); \(hint)", serverPrefix: prefix)
    }
}
