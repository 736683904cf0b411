import Synchronization

/// A Redis client: one connection, pipelined, re-established with backoff when it breaks.
///
/// Every command has a deadline (``RedisConfiguration/commandTimeout``) and every connection attempt one
/// (``RedisConfiguration/connectTimeout``), both on the injected clock. A command is never retried after it may
/// have reached the server: when the connection breaks or the timeout passes with a command in flight, it fails
/// with ``RedisError/Code/connectionLost`` or ``RedisError/Code/timeout`` and ``RedisError/mayHaveExecuted``; the
/// next command reconnects (up to ``RedisBackoff/maximumAttempts`` attempts, waiting between them). A command that
/// could not be sent because no connection could be made fails with the connect error and was not executed.
///
/// ```swift
/// let client = RedisClient(configuration: try RedisConfiguration(url: "redis://127.0.0.1:6379/0"))
/// defer { client.close() }
/// _ = try await client.send(RedisCommand("SET", "greeting", "hello"))
/// ```
public final class RedisClient: Sendable {
    enum Link: Sendable {
        case idle
        case connecting([CheckedContinuation<RedisConnection, any Error>])
        case ready(RedisConnection)
        case closed
    }

    struct State: Sendable {
        var link = Link.idle
        var protocolVersion: Int?
        /// Script source → SHA1 the server gave for it.
        var scripts: [String: String] = [:]
    }

    /// The settings.
    public let configuration: RedisConfiguration
    let time: RedisTime
    let state = Mutex(State())

    /// Creates a client; it connects on the first command.
    ///
    /// - Parameters:
    ///   - configuration: Where and how to connect.
    ///   - clock: The clock of the timeouts and the reconnection backoff.
    public init<C: Clock>(configuration: RedisConfiguration, clock: C) where C.Duration == Duration {
        self.configuration = configuration
        self.time = RedisTime(clock)
    }

    /// Creates a client on the continuous clock; it connects on the first command.
    public convenience init(configuration: RedisConfiguration) {
        self.init(configuration: configuration, clock: ContinuousClock())
    }

    /// The protocol the current connection speaks (3 or 2), or `nil` before the first connection.
    public var protocolVersion: Int? { state.withLock { $0.protocolVersion } }

    /// Whether a connection is up now (a closed or broken one is re-made by the next command).
    public var isConnected: Bool {
        state.withLock { state in
            guard case .ready(let connection) = state.link else { return false }
            return connection.isOpen
        }
    }

    /// Batches sent on the current connection and not answered yet (cancelled ones included until their replies
    /// are read), for tests and diagnostics.
    package var waitingBatchCount: Int {
        state.withLock { state in
            guard case .ready(let connection) = state.link else { return 0 }
            return connection.state.withLock { $0.pipeline.waitingCount }
        }
    }

    /// Sends one command and returns its reply.
    ///
    /// - Throws: ``RedisError``: ``RedisError/Code/serverError`` for an error reply (with its prefix), and the
    ///   connection, timeout and protocol failures described on the type.
    @discardableResult
    public func send(_ command: RedisCommand) async throws(RedisError) -> RESPValue {
        let reply = try await exchange([command])[0]
        if let message = reply.errorMessage { throw RedisError.reply(message, to: command.name) }
        return reply
    }

    /// Sends `commands` in one write and returns each reply, in order: an error reply is that command's failure,
    /// the others still ran.
    ///
    /// - Throws: ``RedisError`` when the exchange itself failed (connect, timeout, lost connection, protocol).
    public func pipeline(_ commands: [RedisCommand]) async throws(RedisError) -> [Result<RESPValue, RedisError>] {
        let replies = try await exchange(commands)
        return zip(commands, replies).map { command, reply in
            reply.errorMessage.map { .failure(RedisError.reply($0, to: command.name)) } ?? .success(reply)
        }
    }

    /// Closes the connection; later commands fail with ``RedisError/Code/closed``. Commands waiting fail with
    /// ``RedisError/Code/closed`` too.
    public func close() {
        let link = state.withLock { state in
            defer { state.link = .closed }
            return state.link
        }
        let error = RedisError(.closed, "The Redis client was closed")
        switch link {
        case .ready(let connection): connection.close(error)
        case .connecting(let waiters): waiters.forEach { $0.resume(throwing: error) }
        case .idle, .closed: break
        }
    }

    /// Sends raw commands on the current connection (connecting first if needed) within the command timeout.
    ///
    /// The commands are sent and awaited on the caller's task; the deadline is a timer task of its own that closes
    /// the connection when it passes (a server that does not answer cannot be trusted to answer in order), which
    /// fails every batch waiting on it. No task group per command: every write of a session's state goes through
    /// here, and each hop between tasks is a wait on a busy machine.
    func exchange(_ commands: [RedisCommand]) async throws(RedisError) -> [RESPValue] {
        let connection = try await connection()
        let deadline = time.now() + configuration.commandTimeout
        let expired = ExpiryFlag()
        let time = self.time
        // Immediately: the timer's sleep is registered before the commands go out, so a manual clock sees it.
        let timer = Task.immediate {
            do { try await time.sleepUntil(deadline) } catch { return }
            expired.set()
            connection.close(RedisError(.connectionLost, "The connection was closed after a command timed out"))
        }
        defer { timer.cancel() }
        do {
            return try await connection.send(commands)
        } catch {
            guard expired.isSet else { throw error }
            let name = commands.count == 1 ? commands[0].name : "a pipeline of \(commands.count) commands"
            throw RedisError(
                .timeout,
                "Redis did not answer \(name) within \(configuration.commandTimeout); the connection was closed",
                mayHaveExecuted: error.mayHaveExecuted)
        }
    }

    /// The open connection, made now if there is none; concurrent callers share one attempt.
    func connection() async throws(RedisError) -> RedisConnection {
        enum Next { case use(RedisConnection), connect, wait }
        let next = state.withLock { state -> Next in
            switch state.link {
            case .ready(let connection) where connection.isOpen: return .use(connection)
            case .connecting: return .wait
            case .closed: return .wait
            case .idle, .ready:
                state.link = .connecting([])
                return .connect
            }
        }
        switch next {
        case .use(let connection):
            return connection
        case .wait:
            do {
                return try await withCheckedThrowingContinuation { continuation in
                    let refusal = state.withLock { state -> RedisError? in
                        switch state.link {
                        case .connecting(let waiters):
                            state.link = .connecting(waiters + [continuation])
                            return nil
                        case .closed:
                            return RedisError(.closed, "The Redis client was closed")
                        default:
                            return RedisError(.connectionLost, "The connection changed; send the command again")
                        }
                    }
                    if let refusal { continuation.resume(throwing: refusal) }
                }
            } catch {
                throw RedisError.wrap(error)
            }
        case .connect:
            let result: Result<RedisConnection, RedisError>
            do throws(RedisError) {
                result = .success(try await connectWithBackoff())
            } catch {
                result = .failure(error)
            }
            let (waiters, installed) = state.withLock { state in
                guard case .connecting(let waiters) = state.link else {
                    return ([CheckedContinuation<RedisConnection, any Error>](), false)
                }
                if case .success(let connection) = result {
                    state.link = .ready(connection)
                } else {
                    state.link = .idle
                }
                return (waiters, true)
            }
            guard installed else {
                // The client was closed while connecting.
                let closed = RedisError(.closed, "The Redis client was closed")
                if case .success(let connection) = result { connection.close(closed) }
                throw closed
            }
            waiters.forEach { $0.resume(with: result) }
            return try result.get()
        }
    }

    /// Attempts to connect until one attempt succeeds or the backoff gives up; returns the last error then.
    private func connectWithBackoff() async throws(RedisError) -> RedisConnection {
        var attempt = 1
        var lastError = RedisError(.connectFailed, "No connection attempt was made")
        while let delay = configuration.reconnect.delay(beforeAttempt: attempt) {
            if delay > .zero {
                do { try await time.sleep(for: delay) } catch { throw RedisError.wrap(error) }
            }
            do throws(RedisError) {
                return try await connectOnce()
            } catch {
                if error.code == .authFailed || error.code == .cancelled || error.code == .serverError
                    || error.code == .invalidURL
                {
                    throw error
                }
                lastError = error
            }
            attempt += 1
        }
        lastError.mayHaveExecuted = false
        throw lastError
    }

    private func connectOnce() async throws(RedisError) -> RedisConnection {
        let configuration = self.configuration
        let timeout = RedisError(
            .timeout,
            "Connecting to Redis at \(configuration.url.address) took longer than \(configuration.connectTimeout)",
            mayHaveExecuted: false)
        let (connection, version) = try await time.race(configuration.connectTimeout, timeout: timeout) {
            () async throws(RedisError) -> (RedisConnection, Int) in
            let connection = try await RedisConnection.connect(
                to: configuration.url.address, limits: configuration.limits)
            do throws(RedisError) {
                return (connection, try await RedisHandshake.perform(on: connection, configuration))
            } catch {
                connection.close(error)
                throw error
            }
        }
        state.withLock { $0.protocolVersion = version }
        return connection
    }
}

/// Whether a command's deadline passed, set by its timer task and read by the command's task.
final class ExpiryFlag: Sendable {
    private let value = Atomic<Bool>(false)

    func set() { value.store(true, ordering: .releasing) }

    var isSet: Bool { value.load(ordering: .acquiring) }
}
