/// Builds Swift source line by line, tracking indentation so that renderers never count spaces.
struct SwiftWriter {
    private(set) var lines: [String] = []
    private var level = 0
    /// Spaces per indentation level.
    let indentation = 4

    /// The longest line the renderers aim for.
    let lineLength = 120

    /// Whether `text` fits on one line at the current indentation.
    func fits(_ text: String) -> Bool { level * indentation + text.count <= lineLength }

    /// Appends one line at the current indentation; an empty line stays empty.
    mutating func line(_ text: String) {
        lines.append(text.isEmpty ? "" : String(repeating: " ", count: level * indentation) + text)
    }

    /// Appends an empty line unless the output is empty or already ends with one.
    mutating func blankLine() {
        if let last = lines.last, !last.isEmpty { lines.append("") }
    }

    /// Writes `header`, then `body` one level deeper, then `footer`.
    mutating func block(_ header: String, footer: String = "}", _ body: (inout SwiftWriter) -> Void) {
        line(header)
        level += 1
        body(&self)
        level -= 1
        line(footer)
    }

    /// The text, ending with one newline.
    var text: String { lines.joined(separator: "\n") + "\n" }
}
