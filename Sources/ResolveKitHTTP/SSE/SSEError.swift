/// A limit of ``SSEParser`` was exceeded; the offending line or event was dropped.
///
/// This is a result delivered as ``SSEParser/Output/failure(_:)``, not a thrown error: the parser discards the
/// rest of the event and resynchronises at the next blank line, so one bad frame never ends the stream.
public struct SSEError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of failure. New codes may be added; switch with a `default`.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// A stable identifier such as `line_too_long`.
        public let rawValue: String
        /// Creates a code from its identifier.
        public init(_ rawValue: String) { self.rawValue = rawValue }
        /// The identifier.
        public var description: String { rawValue }

        /// One line was longer than ``SSEParser/Limits/maxLineLength``.
        public static let lineTooLong = Code("line_too_long")
        /// The joined `data` of one event grew beyond ``SSEParser/Limits/maxEventDataSize``.
        public static let eventTooLarge = Code("event_too_large")
    }

    /// The kind of failure.
    public var code: Code
    /// The limit in bytes that was exceeded.
    public var limit: Int
    /// How many bytes the line or event held when the limit was crossed (at least `limit + 1`).
    public var size: Int

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - code: The kind of failure.
    ///   - limit: The limit in bytes.
    ///   - size: The size in bytes when the limit was crossed.
    public init(code: Code, limit: Int, size: Int) {
        self.code = code
        self.limit = limit
        self.size = size
    }

    /// What happened and how to fix it.
    public var description: String {
        switch code {
        case .lineTooLong:
            "SSE line of at least \(size) bytes exceeds the \(limit)-byte line limit; the event was skipped "
                + "(raise SSEParser.Limits.maxLineLength if the server really sends such lines)"
        case .eventTooLarge:
            "SSE event data of at least \(size) bytes exceeds the \(limit)-byte event limit; the event was "
                + "skipped (raise SSEParser.Limits.maxEventDataSize if the server really sends such events)"
        default:
            "SSE error \(code): \(size) bytes exceed the limit of \(limit)"
        }
    }
}
