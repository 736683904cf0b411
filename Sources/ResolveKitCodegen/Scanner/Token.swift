/// One lexical token of Swift source with its position.
struct Token: Sendable, Hashable {
    /// What a token is.
    enum Kind: Sendable, Hashable {
        /// A name or keyword; backticks are removed from ``Token/text``.
        case identifier
        /// A number literal as written.
        case number
        /// A string literal of any form; ``Token/text`` is the literal as written.
        case string
        /// Brackets, separators and operators.
        case punctuation
        /// A `#if`-style directive or `#macro` name, with its `#`.
        case directive
        /// `// …`
        case lineComment
        /// `/// …`
        case docLineComment
        /// `/* … */`
        case blockComment
        /// `/** … */`
        case docBlockComment
    }

    /// What the token is.
    var kind: Kind
    /// The token's text (see ``Kind`` for what it holds).
    var text: String
    /// A string literal's value with escapes applied, when it has no interpolation.
    var stringValue: String?
    /// Byte offset of the first byte in the scanned text.
    var start: Int
    /// Byte offset one past the last byte.
    var end: Int
    /// 1-based line.
    var line: Int
    /// 1-based column in UTF-8 bytes.
    var column: Int
    /// Whether a line break separates this token from the previous one (or it starts the text).
    var precededByNewline: Bool

    /// Whether this is a comment of any kind.
    var isComment: Bool {
        switch kind {
        case .lineComment, .docLineComment, .blockComment, .docBlockComment: true
        default: false
        }
    }

    /// Whether this is punctuation with exactly `text`.
    func isPunctuation(_ text: String) -> Bool { kind == .punctuation && self.text == text }

    /// Whether this is the identifier or keyword `text`.
    func isIdentifier(_ text: String) -> Bool { kind == .identifier && self.text == text }
}

/// A lexical problem: an unterminated literal or comment.
struct ScanProblem: Sendable, Hashable {
    /// What is wrong.
    var message: String
    /// 1-based line.
    var line: Int
    /// 1-based column.
    var column: Int
}
