/// How a piece of text is shown. Rendered as ANSI SGR codes only when colours are allowed.
public enum TextStyle: Sendable, Hashable {
    /// The terminal's default.
    case plain
    /// Bold.
    case bold
    /// Dimmed, for secondary details.
    case dim
    /// Red: declined, failed, errors.
    case red
    /// Green: approved, done.
    case green
    /// Yellow: waiting, warnings, countdowns.
    case yellow
    /// Blue: the assistant.
    case blue
    /// Cyan: the user, selections.
    case cyan
    /// Magenta: a human agent.
    case magenta
    /// Reverse video: the selected row.
    case inverse

    var sgr: String {
        switch self {
        case .plain: "0"
        case .bold: "1"
        case .dim: "2"
        case .red: "31"
        case .green: "32"
        case .yellow: "33"
        case .blue: "34"
        case .cyan: "36"
        case .magenta: "35"
        case .inverse: "7"
        }
    }
}

/// One line of text made of styled pieces, without a newline.
public struct StyledLine: Sendable, Hashable, ExpressibleByStringLiteral {
    /// A run of text in one style.
    public struct Span: Sendable, Hashable {
        /// The text; no newlines.
        public var text: String
        /// Its style.
        public var style: TextStyle

        /// Creates a span.
        public init(_ text: String, _ style: TextStyle = .plain) {
            self.text = text
            self.style = style
        }
    }

    /// The pieces in order.
    public var spans: [Span]

    /// Creates a line from pieces.
    public init(_ spans: [Span]) { self.spans = spans }

    /// Creates a line of one piece.
    public init(_ text: String, _ style: TextStyle = .plain) { self.spans = [Span(text, style)] }

    /// Creates a plain line.
    public init(stringLiteral value: String) { self.init(value) }

    /// The text without styles.
    public var plainText: String { spans.map(\.text).joined() }

    /// The number of character cells (one per `Character`).
    public var width: Int { spans.reduce(0) { $0 + $1.text.count } }

    /// The line as text for a terminal: SGR codes around styled pieces when `colors`, plain text otherwise.
    public func rendered(colors: Bool) -> String {
        guard colors else { return plainText }
        var text = ""
        for span in spans {
            if span.style == .plain {
                text += span.text
            } else {
                text += "\u{1B}[\(span.style.sgr)m\(span.text)\u{1B}[0m"
            }
        }
        return text
    }

    /// The line cut into lines of at most `width` cells, continuation lines indented by `indent` spaces.
    public func wrapped(to width: Int, indent: Int = 0) -> [StyledLine] {
        let width = max(width, indent + 1, 1)
        guard self.width > width else { return [self] }
        var lines: [StyledLine] = []
        var current: [Span] = []
        var used = 0
        for span in spans {
            var rest = Substring(span.text)
            while !rest.isEmpty {
                if used == width {
                    lines.append(StyledLine(current))
                    current = indent > 0 ? [Span(String(repeating: " ", count: indent))] : []
                    used = indent
                }
                let piece = rest.prefix(width - used)
                current.append(Span(String(piece), span.style))
                used += piece.count
                rest = rest.dropFirst(piece.count)
            }
        }
        if !current.isEmpty { lines.append(StyledLine(current)) }
        return lines
    }
}
