/// Why a JSON text could not be read, and where.
///
/// `offset` is the zero-based byte offset into the UTF-8 input at which the problem was found.
public struct JSONParseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong. New codes may be added; switch with a `default`.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// A stable identifier such as `unexpected_end`.
        public let rawValue: String
        /// Creates a code from its identifier.
        public init(_ rawValue: String) { self.rawValue = rawValue }
        /// The identifier.
        public var description: String { rawValue }

        /// The input ended inside a value.
        public static let unexpectedEnd = Code("unexpected_end")
        /// A byte that cannot start or continue a value here.
        public static let unexpectedByte = Code("unexpected_byte")
        /// A backslash escape that JSON does not define.
        public static let invalidEscape = Code("invalid_escape")
        /// A `\u` escape that is not four hex digits, or an unpaired UTF-16 surrogate.
        public static let invalidUnicodeEscape = Code("invalid_unicode_escape")
        /// String bytes that are not valid UTF-8.
        public static let invalidUTF8 = Code("invalid_utf8")
        /// A raw control character (below U+0020) inside a string.
        public static let controlCharacterInString = Code("control_character_in_string")
        /// A number that does not follow the JSON grammar.
        public static let invalidNumber = Code("invalid_number")
        /// An integer literal beyond ±2^53, which a `Double` cannot hold exactly.
        public static let integerOutOfRange = Code("integer_out_of_range")
        /// A number too large for a `Double`.
        public static let numberOutOfRange = Code("number_out_of_range")
        /// Arrays and objects nested deeper than the limit.
        public static let depthLimitExceeded = Code("depth_limit_exceeded")
        /// Bytes after the end of the top-level value.
        public static let trailingData = Code("trailing_data")
        /// The input is larger than the caller's limit.
        public static let inputTooLarge = Code("input_too_large")
    }

    /// What went wrong.
    public var code: Code
    /// The zero-based byte offset of the problem in the input.
    public var offset: Int
    /// A sentence for people.
    public var message: String

    /// Creates an error.
    public init(code: Code, offset: Int, message: String) {
        self.code = code
        self.offset = offset
        self.message = message
    }

    /// `message at byte N`.
    public var description: String { "\(message) at byte \(offset)" }
}
