/// Why a byte stream is not valid RESP, or exceeds the parser's limits.
///
/// The parser stops at the first error and throws it again on every later chunk until reset: after a protocol
/// violation a connection cannot tell where the next reply starts, so its owner closes it.
public struct RESPParseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of violation. New codes may be added; switch with a `default`.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// A stable identifier such as `bulk_too_long`.
        public let rawValue: String
        /// Creates a code from its identifier.
        public init(_ rawValue: String) { self.rawValue = rawValue }
        /// The identifier.
        public var description: String { rawValue }

        /// The first byte of an element names no RESP type.
        public static let unknownType = Code("unknown_type")
        /// A line is not ended by CRLF, or its number, boolean or double does not parse.
        public static let malformed = Code("malformed")
        /// A header or simple line is longer than ``RESPParser/Limits/maxLineLength``.
        public static let lineTooLong = Code("line_too_long")
        /// A bulk string, bulk error or verbatim string announces more than ``RESPParser/Limits/maxBulkLength``.
        public static let bulkTooLong = Code("bulk_too_long")
        /// Aggregates are nested deeper than ``RESPParser/Limits/maxDepth``.
        public static let tooDeep = Code("too_deep")
        /// An aggregate announces more than ``RESPParser/Limits/maxAggregateCount`` elements (or pairs).
        public static let aggregateTooLarge = Code("aggregate_too_large")
        /// A RESP3 streamed string or aggregate (`$?`, `*?`): Redis never sends them, this parser refuses them.
        public static let unsupported = Code("unsupported")
    }

    /// The kind of violation.
    public var code: Code
    /// What is wrong, in words.
    public var message: String
    /// The offset in the stream (since the parser was created or reset) of the line where the bad element starts.
    public var offset: Int

    /// Creates an error.
    public init(code: Code, message: String, offset: Int) {
        self.code = code
        self.message = message
        self.offset = offset
    }

    /// `bulk_too_long at byte 12: …`.
    public var description: String { "\(code) at byte \(offset): \(message)" }
}
