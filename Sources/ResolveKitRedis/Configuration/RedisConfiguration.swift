/// How a ``RedisClient`` connects and how long it waits.
public struct RedisConfiguration: Sendable, CustomStringConvertible {
    /// Which protocol to speak.
    public enum ProtocolVersion: Sendable, Hashable {
        /// `HELLO 3`, falling back to RESP2 (`AUTH`, `CLIENT SETNAME`) when the server does not know `HELLO`.
        case resp3
        /// RESP2 only: `AUTH`, `CLIENT SETNAME`, no `HELLO`.
        case resp2
    }

    /// Where the server is, who to log in as, which database.
    public var url: RedisURL
    /// The name the connection shows in `CLIENT LIST`, or `nil` for none.
    public var clientName: String?
    /// The protocol to ask for.
    public var protocolVersion: ProtocolVersion
    /// How long one connection attempt (socket and handshake) may take; 2 s by default.
    public var connectTimeout: Duration
    /// How long a command (or a pipeline) may wait for its reply once sent; 2 s by default. When it passes, the
    /// connection is closed (a server that does not answer cannot be trusted to answer in order) and the command
    /// fails with ``RedisError/Code/timeout``.
    public var commandTimeout: Duration
    /// How a broken connection is re-established.
    public var reconnect: RedisBackoff
    /// Bounds on the replies the parser accepts.
    public var limits: RESPParser.Limits

    /// Creates a configuration.
    public init(
        url: RedisURL, clientName: String? = nil, protocolVersion: ProtocolVersion = .resp3,
        connectTimeout: Duration = .seconds(2), commandTimeout: Duration = .seconds(2),
        reconnect: RedisBackoff = RedisBackoff(), limits: RESPParser.Limits = RESPParser.Limits()
    ) {
        self.url = url
        self.clientName = clientName
        self.protocolVersion = protocolVersion
        self.connectTimeout = connectTimeout
        self.commandTimeout = commandTimeout
        self.reconnect = reconnect
        self.limits = limits
    }

    /// The URL (password hidden), client name, protocol and timeouts.
    public var description: String {
        "RedisConfiguration(url: \(url), clientName: \(clientName ?? "-"), protocol: \(protocolVersion), "
            + "connectTimeout: \(connectTimeout), commandTimeout: \(commandTimeout))"
    }

    /// A configuration for a URL such as `redis://127.0.0.1:6379/0`, with the default timeouts.
    ///
    /// - Throws: ``RedisError`` with ``RedisError/Code/invalidURL``.
    public init(url text: String, clientName: String? = nil) throws(RedisError) {
        self.init(url: try RedisURL(parsing: text), clientName: clientName)
    }
}

/// How many times, and how far apart, a command's connection is attempted when the server is unreachable.
///
/// A pure value: ``delay(beforeAttempt:)`` is the whole policy. Attempts after the first wait `initialDelay`,
/// doubling up to `maximumDelay`; after `maximumAttempts` the command fails with the last connect error.
public struct RedisBackoff: Sendable, Hashable {
    /// Connection attempts per command, at least 1; 4 by default.
    public var maximumAttempts: Int
    /// The wait before the second attempt; 50 ms by default.
    public var initialDelay: Duration
    /// The longest wait between attempts; 1 s by default.
    public var maximumDelay: Duration

    /// Creates a policy.
    public init(
        maximumAttempts: Int = 4, initialDelay: Duration = .milliseconds(50), maximumDelay: Duration = .seconds(1)
    ) {
        self.maximumAttempts = max(1, maximumAttempts)
        self.initialDelay = initialDelay
        self.maximumDelay = maximumDelay
    }

    /// How long to wait before attempt `attempt` (1-based), or `nil` when no attempt is left.
    public func delay(beforeAttempt attempt: Int) -> Duration? {
        guard attempt <= maximumAttempts else { return nil }
        guard attempt > 1 else { return .zero }
        var delay = initialDelay
        for _ in 2..<attempt where delay < maximumDelay { delay = delay * 2 }
        return min(delay, maximumDelay)
    }
}
