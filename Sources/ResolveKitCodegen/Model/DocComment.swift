/// The lines of the doc comment above a declaration (`///` lines and `/** */` blocks), markers removed.
struct DocComment: Sendable, Hashable {
    /// One line of documentation text.
    struct Line: Sendable, Hashable {
        /// The text after the comment marker and one space: a slice of the comment's text, so that reading a doc
        /// comment allocates nothing per line.
        var text: Substring
        /// Where `text` starts.
        var location: SourceLocation
    }

    /// The lines, in order.
    var lines: [Line]

    /// A doc comment of `lines` (as read back from the cache).
    init(lines: [Line]) {
        self.lines = lines
    }

    /// Collects the documentation lines of the comments in `range` of `tokens` that `isIncluded` (other comments are
    /// skipped). The tokens are read where they are stored, not copied out.
    init?(tokens: [Token], in range: Range<Int>, file: String, where isIncluded: (Int) -> Bool) {
        guard !range.isEmpty else { return nil }
        var lines: [Line] = []
        // Most comments are one line each: counting them first spares regrowing the list line by line.
        lines.reserveCapacity(range.reduce(0) { count, index in isIncluded(index) ? count + 1 : count })
        for index in range where isIncluded(index) {
            switch tokens[index].kind {
            case .docLineComment:
                let (text, offset) = Self.lineText(of: tokens[index].text)
                let location = SourceLocation(
                    file: file, line: tokens[index].line, column: tokens[index].column + offset)
                lines.append(Line(text: text, location: location))
            case .docBlockComment:
                let comment = tokens[index]
                let body = comment.text.dropFirst(3).dropLast(2)
                for (offset, rawLine) in body.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                    var text = rawLine.drop { $0 == " " || $0 == "\t" }
                    if text.first == "*" { text = text.dropFirst() }
                    if text.first == " " { text = text.dropFirst() }
                    let column = offset == 0 ? comment.column + 3 : 1 + rawLine.utf8.count - text.utf8.count
                    let location = SourceLocation(file: file, line: comment.line + offset, column: column)
                    lines.append(Line(text: text, location: location))
                }
            default:
                continue
            }
        }
        guard !lines.isEmpty else { return nil }
        self.lines = lines
    }

    /// The text of a `///` comment after the marker and one space, and its column offset in the comment (3, or 4
    /// after a space). Cut by byte when the two bytes after the marker are ASCII, so that each is a character of its
    /// own; otherwise by character, as a combining mark may join the one before it.
    private static func lineText(of comment: String) -> (Substring, Int) {
        let utf8 = comment.utf8
        var bytes = utf8.dropFirst(3).makeIterator()
        let first = bytes.next()
        if first.map({ $0 < 0x80 }) ?? true, bytes.next().map({ $0 < 0x80 }) ?? true {
            let start = utf8.index(utf8.startIndex, offsetBy: min(3, utf8.count))
            guard first == .space else { return (comment[start...], 3) }
            return (comment[utf8.index(after: start)...], 4)
        }
        var text = comment.dropFirst(3)
        guard text.first == " " else { return (text, 3) }
        text = text.dropFirst()
        return (text, 4)
    }
}

/// A constraint written as a doc-comment bullet, such as `- Minimum: 0`.
struct DocumentationTag: Sendable, Hashable {
    /// The tags the generator understands, keyed by their lowercased name.
    static let known: [String: String] = [
        "minimum": "Minimum", "maximum": "Maximum", "minlength": "MinLength", "maxlength": "MaxLength",
        "pattern": "Pattern", "minitems": "MinItems", "maxitems": "MaxItems",
    ]

    /// The tag's canonical name (`Minimum`).
    var name: String
    /// The text after the colon, trimmed.
    var value: String
    /// Where the tag's name is.
    var location: SourceLocation
}

/// What a doc comment says: the description, each parameter's text and constraint tags.
struct Documentation: Sendable, Hashable {
    /// A parameter's `- Parameter x:` text and tags.
    struct Parameter: Sendable, Hashable {
        var text: String
        var tags: [DocumentationTag] = []
        var indentation: Int
    }

    /// The prose before the first callout: lines joined with spaces, paragraphs with a blank line.
    var summary: String?
    /// Parameter texts by name.
    var parameters: [String: Parameter] = [:]
    /// Tags written at the top level (for a property's own doc comment).
    var tags: [DocumentationTag] = []
}
