import Glibc

/// Why telemetry could not be set up or could not deliver: a metric that breaks Prometheus' rules, a malformed
/// `OTEL_*` setting, a socket that could not be bound, an OTLP endpoint that failed.
///
/// Telemetry never throws into the code it observes: recording a metric or ending a span cannot fail. These errors
/// come from setting up (registering a metric, reading the configuration, starting the metrics endpoint) and from
/// the exporter's own work, where they are counted and logged, not passed to a tool call.
public struct TelemetryError: Error, Sendable, CustomStringConvertible {
    /// The kind of failure. New codes may be added; switch with a `default`.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// A stable identifier such as `invalid_metric_name`.
        public let rawValue: String
        /// Creates a code from its identifier.
        public init(_ rawValue: String) { self.rawValue = rawValue }
        /// The identifier.
        public var description: String { rawValue }

        /// A metric name breaks Prometheus' rules (`[a-zA-Z_][a-zA-Z0-9_]*`, no reserved suffix).
        public static let invalidMetricName = Code("invalid_metric_name")
        /// A label name breaks Prometheus' rules, is reserved (`le`, `__…`) or repeated.
        public static let invalidLabel = Code("invalid_label")
        /// A metric of that name (or one whose samples would collide with it) is already registered.
        public static let duplicateMetric = Code("duplicate_metric")
        /// Histogram buckets are empty, not increasing, or not finite.
        public static let invalidBuckets = Code("invalid_buckets")
        /// An `OTEL_*` setting or another option cannot work (a malformed endpoint URL, an unsupported protocol).
        public static let invalidConfiguration = Code("invalid_configuration")
        /// The endpoint's scheme is one this transport does not speak (`https://` on the plain HTTP transport).
        public static let unsupportedEndpoint = Code("unsupported_endpoint")
        /// A socket could not be created, bound or listened on.
        public static let socketFailed = Code("socket_failed")
        /// The endpoint could not be reached (refused, unreachable, name not resolved).
        public static let connectFailed = Code("connect_failed")
        /// The request did not finish within its timeout.
        public static let timedOut = Code("timed_out")
        /// The endpoint's answer broke HTTP, or the connection dropped mid-answer.
        public static let protocolError = Code("protocol_error")
        /// The exporter or endpoint was shut down.
        public static let shutdown = Code("shutdown")
    }

    /// The kind of failure.
    public var code: Code
    /// What happened and how to fix it.
    public var message: String
    /// The `errno` of a failed system call, when one failed.
    public var errno: Int32?
    /// The cause, when another component reported the failure (an HTTP client's error).
    public var underlying: (any Error & Sendable)?

    /// Creates an error.
    public init(_ code: Code, _ message: String, errno: Int32? = nil, underlying: (any Error & Sendable)? = nil) {
        self.code = code
        self.message = message
        self.errno = errno
        self.underlying = underlying
    }

    /// `socket_failed: bind 127.0.0.1:9464 failed (Address already in use)`.
    public var description: String {
        var text = "\(code): \(message)"
        if let errno { text += " (\(String(cString: strerror(errno))))" }
        if let underlying { text += " — \(underlying)" }
        return text
    }
}
