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

    /// Collects the documentation lines of `comments` (other comments are skipped).
    init?(comments: some Sequence<Token>, file: String) {
        var lines: [Line] = []
        // Most comments are one line each: counting them first spares regrowing the list line by line.
        lines.reserveCapacity(comments.reduce(0) { count, _ in count + 1 })
        for comment in comments {
            switch comment.kind {
            case .docLineComment:
                var text = comment.text.dropFirst(3)
                var column = comment.column + 3
                if text.first == " " {
                    text = text.dropFirst()
                    column += 1
                }
                lines.append(
                    Line(text: text, location: SourceLocation(file: file, line: comment.line, column: column)))
            case .docBlockComment:
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
