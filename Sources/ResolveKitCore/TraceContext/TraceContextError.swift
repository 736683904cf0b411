/// Why a W3C `traceparent` or `tracestate` header could not be read, and where.
///
/// `offset` is the zero-based byte offset of the first byte that breaks the format, after leading spaces and tabs
/// were removed; `nil` when the problem is the whole value (its length, too many entries).
public struct TraceContextError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong. New codes may be added; switch with a `default`.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// A stable identifier such as `invalid_traceparent`.
        public let rawValue: String
        /// Creates a code from its identifier.
        public init(_ rawValue: String) { self.rawValue = rawValue }
        /// The identifier.
        public var description: String { rawValue }

        /// The `traceparent` value breaks the W3C format (length, delimiters, hex digits, all-zero ids).
        public static let invalidTraceparent = Code("invalid_traceparent")
        /// The `traceparent` version is `ff`, which the specification forbids.
        public static let unsupportedVersion = Code("unsupported_version")
        /// The `tracestate` value breaks the W3C format (a key, a value, a duplicate key, more than 32 entries).
        public static let invalidTracestate = Code("invalid_tracestate")
    }

    /// What went wrong.
    public var code: Code
    /// What is wrong and what the header must look like instead.
    public var message: String
    /// The byte offset of the first bad byte, when one byte is to blame.
    public var offset: Int?

    /// Creates an error.
    public init(code: Code, message: String, offset: Int? = nil) {
        self.code = code
        self.message = message
        self.offset = offset
    }

    /// `invalid_traceparent at byte 3: …`.
    public var description: String {
        "\(code)" + (offset.map { " at byte \($0)" } ?? "") + ": \(message)"
    }
}
