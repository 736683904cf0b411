/// One resumable server-sent event stream: connects, parses, resumes by cursor, reconnects with backoff.
///
/// ``run(_:)`` is the scoped lifetime: it connects, hands every ``Element`` to its closure in order, reconnects
/// as needed, and returns when the calling task is cancelled or the stream failed for good, after closing the
/// connection and stopping its timers. The closure is awaited before the next element, so a slow consumer
/// slows the stream rather than growing a buffer.
///
/// Behaviour (WireProtocol §5, §8.2, §10.3):
/// - Each connect sends `cursor=<id of the last event received>` and the headers from the `headers` closure,
///   called anew for every connect so a refreshed capability token is used.
/// - Events whose id is among the last ``Configuration/recentEventIDCapacity`` ids are dropped as replays.
/// - The server ending a healthy stream (every 300 s) is routine: reconnect at once, no backoff, no attempt used.
/// - Transport errors, 5xx, 400, 408, 429, idle timeouts and early ends are retried with ``Backoff``, waiting at
///   least the server's `retry:` time (up to ``Backoff/maximumDelay``) once it sent one.
/// - 401, 403, 404, 410 and other 4xx end the stream as ``Termination/failed(_:)`` with status and body, so the
///   runtime can refresh the token or create a new session.
public struct EventStream: Sendable {
    /// The stream URL without cursor, e.g. `https://host/v1/sessions/ID/events`.
    public let url: String
    /// The cursor to resume after on the first connect (the id of the last event already processed).
    public let cursor: String?
    /// The tuning.
    public let configuration: Configuration
    let transport: EventStreamTransport
    let headers: @Sendable () async -> [(name: String, value: String)]
    let time: TimeSource

    /// Creates a stream; nothing happens until ``run(_:)``.
    ///
    /// - Parameters:
    ///   - url: The stream URL without cursor; it may already have a query.
    ///   - cursor: The last event id already processed, or `nil` to start from the beginning.
    ///   - configuration: The tuning.
    ///   - transport: Opens connections.
    ///   - clock: The clock for backoff and the idle watchdog, e.g. `ContinuousClock()`.
    ///   - headers: The header fields to send, called before every connect.
    public init<C: Clock>(
        url: String, cursor: String? = nil, configuration: Configuration = Configuration(),
        transport: EventStreamTransport, clock: C,
        headers: @escaping @Sendable () async -> [(name: String, value: String)]
    ) where C.Duration == Duration {
        self.url = url
        self.cursor = cursor
        self.configuration = configuration
        self.transport = transport
        self.headers = headers
        self.time = TimeSource(clock)
    }

    /// Runs the stream until the calling task is cancelled or the stream fails for good.
    ///
    /// Unless `body` throws, the last element is `.state(.closed)` or `.state(.failed(_))`.
    ///
    /// - Parameters:
    ///   - isolation: Where the stream reads and calls `body`: the caller's actor by default, so that an actor's
    ///     handler runs without a hop of its own for each element.
    ///   - body: Receives each element in order; the stream waits for it to return.
    /// - Returns: Why the stream ended.
    /// - Throws: Whatever `body` throws; the connection is closed first.
    @discardableResult
    public func run<Failure: Error>(
        isolation: isolated (any Actor)? = #isolation,
        _ body: (Element) async throws(Failure) -> Void
    ) async throws(Failure) -> Termination {
        var machine = StateMachine(configuration: configuration, cursor: cursor)
        var parser = SSEParser(limits: configuration.limits)
        var action = machine.start()
        connecting: while true {
            guard case .connect(let cursor) = action, !Task.isCancelled else { break connecting }
            try await body(.state(.connecting))
            let retry: StateMachine.RetryAction
            switch await open(cursor: cursor, machine: &machine) {
            case .cancelled:
                try await body(.state(.closed))
                return .cancelled
            case .retry(let action):
                retry = action
            case .open(let connection):
                try await body(.state(.open))
                guard let ending = try await read(connection, parser: &parser, machine: &machine, body: body) else {
                    break connecting
                }
                machine.serverReconnectionTime = parser.reconnectionTime.map { .milliseconds($0) }
                retry = machine.connectionEnded(ending, at: time.now())
            }
            switch retry {
            case .fail(let error):
                try await body(.state(.failed(error)))
                return .failed(error)
            case .reconnect(let attempt, let delay):
                configuration.onReconnect?(machine.reconnectCause)
                try await body(.state(.reconnecting(attempt: attempt, delay: delay)))
                if delay > .zero {
                    do { try await time.sleep(time.now() + delay) } catch { break connecting }
                }
                action = machine.reconnectDelayElapsed()
            }
        }
        try await body(.state(.closed))
        return .cancelled
    }

    enum Opening {
        case open(EventStreamConnection)
        case retry(StateMachine.RetryAction)
        case cancelled
    }

    /// Out of line: ``run(_:)``'s frame lives as long as the stream, and a task keeps its frames' memory until it
    /// ends, so what only connecting needs stays out of it.
    @inline(never) private func open(cursor: String?, machine: inout StateMachine) async -> Opening {
        let request = EventStreamRequest(url: Self.url(url, cursor: cursor), headers: await headers())
        let connection: EventStreamConnection
        do {
            connection = try await connect(request)
        } catch {
            return Task.isCancelled ? .cancelled : .retry(machine.connectFailed(error))
        }
        guard !Task.isCancelled else {
            connection.cancel()
            return .cancelled
        }
        switch machine.responded(status: connection.status, body: connection.body, at: time.now()) {
        case .read:
            return .open(connection)
        case .retry(let action):
            connection.cancel()
            return .retry(action)
        }
    }

    /// Opens a connection. With an idle watchdog, a server that accepts the request but sends no response head
    /// within the idle timeout is given up on like a silent open stream (retried with backoff), and the request's
    /// ``StallSignal`` fired so the transport gives up its connection; otherwise such a server (a hung proxy, a
    /// stalled backend) would hold the stream in `connecting` for ever.
    private func connect(_ request: EventStreamRequest) async throws -> EventStreamConnection {
        guard let idleTimeout = configuration.idleTimeout else { return try await transport.connect(request) }
        let deadline = time.now() + idleTimeout
        return try await withThrowingTaskGroup(of: EventStreamConnection?.self) { group in
            group.addTask { try await transport.connect(request) }
            group.addTask {
                try await time.sleep(deadline)
                return nil
            }
            let first: EventStreamConnection??
            do {
                first = try await group.next()
            } catch {
                group.cancelAll()
                await Self.closeLateConnections(&group)
                throw error
            }
            guard case .some(.some(let connection)) = first else {
                // The connection under the request may have gone silent: it must not carry the next attempt.
                request.stallSignal.fire()
                group.cancelAll()
                await Self.closeLateConnections(&group)
                throw EventStreamError(code: .idleTimeout, message: "No response within the idle timeout")
            }
            group.cancelAll()
            await Self.closeLateConnections(&group)
            return connection
        }
    }

    /// Waits for the rest of a connect race; a connection that arrived after the race was decided is closed.
    private static func closeLateConnections(_ group: inout ThrowingTaskGroup<EventStreamConnection?, any Error>) async
    {
        while true {
            do {
                guard let late = try await group.next() else { return }
                late?.cancel()
            } catch {
                continue
            }
        }
    }
}

/// A clock reduced to what the stream needs: time since the stream was created, and sleeping until such a time.
struct TimeSource: Sendable {
    let now: @Sendable () -> Duration
    let sleep: @Sendable (Duration) async throws -> Void

    init<C: Clock>(_ clock: C) where C.Duration == Duration {
        let origin = clock.now
        now = { origin.duration(to: clock.now) }
        sleep = { deadline in try await clock.sleep(until: origin.advanced(by: deadline), tolerance: nil) }
    }
}
