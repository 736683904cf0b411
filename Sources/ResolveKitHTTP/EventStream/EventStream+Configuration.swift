extension EventStream {
    /// How long to wait before reconnecting after a failure, and how often to try.
    ///
    /// Attempt `n` (counted from 1 after the last healthy connection) waits
    /// `min(initialDelay × 2^(n-1), maximumDelay)`, scaled by a random factor in `1 ± jitter`. The defaults give
    /// 1 s, 2 s, 4 s, 8 s, 16 s, 30 s, 30 s … each ±20 %.
    public struct Backoff: Sendable {
        /// The delay before the first retry. Default 1 s.
        public var initialDelay: Duration
        /// The longest delay before jitter. Default 30 s.
        public var maximumDelay: Duration
        /// The jitter as a fraction of the delay, 0 … 1. Default 0.2 (±20 %).
        public var jitter: Double
        /// How many consecutive failed attempts are retried; `nil` (the default) retries forever.
        public var maxAttempts: Int?
        /// A source of uniform random numbers in `0 ..< 1`; inject a constant for deterministic tests.
        public var random: @Sendable () -> Double

        /// Creates a backoff policy.
        ///
        /// - Parameters:
        ///   - initialDelay: The delay before the first retry.
        ///   - maximumDelay: The cap before jitter.
        ///   - jitter: The jitter fraction, 0 … 1.
        ///   - maxAttempts: Consecutive failures that are retried; `nil` for no limit.
        ///   - random: Uniform random numbers in `0 ..< 1`.
        public init(
            initialDelay: Duration = .seconds(1), maximumDelay: Duration = .seconds(30), jitter: Double = 0.2,
            maxAttempts: Int? = nil, random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }
        ) {
            self.initialDelay = initialDelay
            self.maximumDelay = maximumDelay
            self.jitter = jitter
            self.maxAttempts = maxAttempts
            self.random = random
        }

        /// The delay before retry `attempt` (1-based) for a random draw `unit` in `0 ..< 1`.
        ///
        /// - Parameters:
        ///   - attempt: The retry number, from 1.
        ///   - unit: A uniform random number; 0.5 means no jitter.
        /// - Returns: The delay, never negative.
        public func delay(forAttempt attempt: Int, unit: Double) -> Duration {
            var delay = initialDelay
            var doublings = max(attempt - 1, 0)
            while doublings > 0, delay < maximumDelay {
                delay *= 2
                doublings -= 1
            }
            delay = min(delay, maximumDelay)
            let factor = 1 + jitter * (2 * unit - 1)
            return factor == 1 ? delay : max(delay * factor, .zero)
        }
    }

    /// Tuning of one event stream. The defaults suit ResolveKit's server, which sends a keep-alive comment every
    /// 15 s and ends every response after at most 300 s.
    public struct Configuration: Sendable {
        /// The reconnect policy.
        public var backoff: Backoff
        /// A connection counts as healthy once it delivered an event or stayed open this long; a healthy
        /// connection resets the backoff, and its clean end is routine (reconnect at once). Default 5 s.
        public var healthyAfter: Duration
        /// Reconnect when no byte (keep-alive comments included) arrives for this long; `nil` disables the
        /// watchdog. Default 45 s, three missed keep-alives.
        public var idleTimeout: Duration?
        /// How many recent event ids are remembered to drop replayed duplicates. Default 1024.
        public var recentEventIDCapacity: Int
        /// The SSE line and event limits.
        public var limits: SSEParser.Limits
        /// Told before each reconnect why the connection is opened again: the error that ended or refused the last
        /// one, or `nil` for the routine reconnect after the server ended a healthy stream. Called on the stream's
        /// task: it must return at once (count it, never wait). `nil` by default.
        public var onReconnect: (@Sendable (EventStreamError?) -> Void)?

        /// Creates a configuration.
        ///
        /// - Parameters:
        ///   - backoff: The reconnect policy.
        ///   - healthyAfter: When an open connection counts as healthy.
        ///   - idleTimeout: The idle watchdog period, or `nil`.
        ///   - recentEventIDCapacity: How many event ids to remember for dedupe (at least 1).
        ///   - limits: The SSE parser limits.
        public init(
            backoff: Backoff = Backoff(), healthyAfter: Duration = .seconds(5), idleTimeout: Duration? = .seconds(45),
            recentEventIDCapacity: Int = 1024, limits: SSEParser.Limits = SSEParser.Limits()
        ) {
            self.backoff = backoff
            self.healthyAfter = healthyAfter
            self.idleTimeout = idleTimeout
            self.recentEventIDCapacity = recentEventIDCapacity
            self.limits = limits
        }
    }
}
