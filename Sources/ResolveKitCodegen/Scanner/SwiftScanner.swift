/// Splits Swift source into tokens with line and column, keeping comments (doc comments included).
///
/// It knows enough of the lexical grammar to never lose its place: nested block comments, every string literal
/// form (escapes, `\(…)` interpolation with nesting, multi-line `"""`, raw `#"…"#`), `#/…/#` regex literals,
/// backticked names and `#`-directives. It does not parse; ``DeclarationParser`` does.
struct SwiftScanner {
    /// The source's UTF-8, borrowed for the length of ``scan(_:line:column:)``: reading a byte or cutting a token's
    /// text out of it costs no reference count.
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0
    var line: Int
    /// Offset such that `column = index - lineStart + 1`.
    var lineStart: Int
    var sawNewline = true
    var tokens: [Token] = []
    var problems: [ScanProblem] = []

    /// Creates a scanner over `bytes`, numbering from `line` and `column` (for text cut out of a larger file).
    private init(_ bytes: UnsafeBufferPointer<UInt8>, line: Int, column: Int) {
        self.bytes = bytes
        self.line = line
        self.lineStart = 1 - column
    }

    /// Scans `source` into tokens and problems, numbering from `line` and `column`.
    static func scan(_ source: String, line: Int = 1, column: Int = 1) -> (tokens: [Token], problems: [ScanProblem]) {
        var source = source
        return source.withUTF8 { bytes in
            // The scanner does not outlive this closure, so its borrowed buffer stays valid while it is used.
            var scanner = SwiftScanner(bytes, line: line, column: column)
            // Swift source has about one token per five bytes: reserving that spares most regrowth copies.
            scanner.tokens.reserveCapacity(bytes.count / 5)
            scanner.run()
            return (scanner.tokens, scanner.problems)
        }
    }

    /// The text of `range` of the source. A one-byte ASCII text (most punctuation) is taken from a table rather
    /// than decoded: it is two tokens in five.
    func text(_ range: Range<Int>) -> String {
        if range.count == 1, bytes[range.lowerBound] < 0x80 { return Self.asciiTexts[Int(bytes[range.lowerBound])] }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }

    /// The text of each one-byte ASCII token, by its byte.
    private static let asciiTexts = (0..<128).map { String(decoding: [UInt8($0)], as: UTF8.self) }

    var column: Int { index - lineStart + 1 }

    func peek(_ offset: Int = 0) -> UInt8? {
        let position = index + offset
        return position < bytes.count ? bytes[position] : nil
    }

    mutating func run() {
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case .space, .tab, .carriageReturn, 0x0B, 0x0C:
                index += 1
            case .newline:
                newline()
            case .slash where peek(1) == .slash:
                scanLineComment()
            case .slash where peek(1) == .star:
                scanBlockComment()
            case .quote:
                appendString(start: index, hashes: 0)
            case .hash:
                scanHash()
            case .backtick:
                scanBacktickedIdentifier()
            case _ where byte.isIdentifierHead || byte == .dollar:
                let start = index
                let (line, column) = (self.line, self.column)
                index += 1
                while let next = peek(), next.isIdentifierBody { index += 1 }
                append(.identifier, start: start, line: line, column: column)
            case _ where byte.isDigit:
                scanNumber()
            default:
                scanPunctuation()
            }
        }
    }

    mutating func newline() {
        index += 1
        line += 1
        lineStart = index
        sawNewline = true
    }

    mutating func append(
        _ kind: Token.Kind,
        start: Int,
        line: Int,
        column: Int,
        text: String? = nil,
        stringValue: String? = nil
    ) {
        let text = text ?? self.text(start..<index)
        tokens.append(
            Token(
                kind: kind, text: text, stringValue: stringValue, start: start, end: index, line: line,
                column: column, precededByNewline: sawNewline))
        sawNewline = false
    }

    mutating func scanLineComment() {
        let start = index
        let (line, column) = (self.line, self.column)
        while let next = peek(), next != .newline { index += 1 }
        let isDoc =
            bytes.count > start + 2 && bytes[start + 2] == .slash && (start + 3 >= index || bytes[start + 3] != .slash)
        append(isDoc ? .docLineComment : .lineComment, start: start, line: line, column: column)
    }

    mutating func scanBlockComment() {
        let start = index
        let (line, column) = (self.line, self.column)
        index += 2
        var depth = 1
        while depth > 0 {
            guard let byte = peek() else {
                problems.append(ScanProblem(message: "unterminated block comment", line: line, column: column))
                break
            }
            if byte == .slash && peek(1) == .star {
                depth += 1
                index += 2
            } else if byte == .star && peek(1) == .slash {
                depth -= 1
                index += 2
            } else if byte == .newline {
                newline()
            } else {
                index += 1
            }
        }
        let isDoc = index - start > 4 && bytes[start + 2] == .star && bytes[start + 3] != .slash
        let wasNewline = sawNewline
        append(isDoc ? .docBlockComment : .blockComment, start: start, line: line, column: column)
        sawNewline = wasNewline || sawNewline
    }

    mutating func scanHash() {
        let start = index
        let (line, column) = (self.line, self.column)
        var hashes = 0
        while peek(hashes) == .hash { hashes += 1 }
        if peek(hashes) == .quote {
            appendString(start: start, hashes: hashes)
        } else if peek(hashes) == .slash {
            scanExtendedRegex(hashes: hashes)
            append(.punctuation, start: start, line: line, column: column)
        } else if hashes == 1, let next = peek(1), next.isIdentifierHead {
            index += 1
            while let next = peek(), next.isIdentifierBody { index += 1 }
            append(.directive, start: start, line: line, column: column)
        } else {
            index += 1
            append(.punctuation, start: start, line: line, column: column)
        }
    }

    /// Skips `#/…/#` (as many `#` as it opened with); it is kept as one punctuation token.
    mutating func scanExtendedRegex(hashes: Int) {
        index += hashes + 1
        while let byte = peek() {
            if byte == .slash && (0..<hashes).allSatisfy({ peek(1 + $0) == .hash }) {
                index += 1 + hashes
                return
            }
            if byte == .newline { newline() } else { index += 1 }
        }
    }

    mutating func scanBacktickedIdentifier() {
        let start = index
        let (line, column) = (self.line, self.column)
        index += 1
        while let next = peek(), next != .backtick, next != .newline { index += 1 }
        let name = text((start + 1)..<index)
        if peek() == .backtick { index += 1 }
        append(.identifier, start: start, line: line, column: column, text: name)
    }

    mutating func scanNumber() {
        let start = index
        let (line, column) = (self.line, self.column)
        let isHex = peek() == .zero && (peek(1) == UInt8(ascii: "x") || peek(1) == UInt8(ascii: "X"))
        index += 1
        while let next = peek() {
            if next.isIdentifierBody {
                index += 1
            } else if next == .dot, let after = peek(1), after.isDigit {
                index += 1
            } else if next == .plus || next == .minus, let previous = bytes[index - 1].lowercasedASCII,
                previous == (isHex ? UInt8(ascii: "p") : UInt8(ascii: "e"))
            {
                index += 1
            } else {
                break
            }
        }
        append(.number, start: start, line: line, column: column)
    }

    mutating func scanPunctuation() {
        let start = index
        let (line, column) = (self.line, self.column)
        let byte = bytes[index]
        if byte == .minus && peek(1) == .greater {
            index += 2
        } else if byte == .dot {
            index += 1
            if peek() == .dot && (peek(1) == .dot || peek(1) == .less) { index += 2 }
        } else if byte.isGroupedOperator {
            index += 1
            while let next = peek(), next.isGroupedOperator,
                !(next == .slash && (peek(1) == .slash || peek(1) == .star))
            {
                index += 1
            }
        } else {
            index += 1
        }
        append(.punctuation, start: start, line: line, column: column)
    }
}
