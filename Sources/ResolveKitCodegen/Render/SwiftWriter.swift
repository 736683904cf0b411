/// Builds Swift source line by line, tracking indentation so that renderers never count spaces.
struct SwiftWriter {
    private var output = ""
    private var level = 0
    private var lastLineIsBlank = true
    /// Spaces per indentation level.
    let indentation = 4
    /// The longest line the renderers aim for.
    let lineLength = 120

    init() {
        output.reserveCapacity(4096)
    }

    /// Whether `text` fits on one line at the current indentation.
    func fits(_ text: String) -> Bool { level * indentation + text.utf8.count <= lineLength }

    /// Appends one line at the current indentation; an empty line stays empty.
    mutating func line(_ text: String) {
        if !text.isEmpty {
            for _ in 0..<level { output += "    " }
            output += text
        }
        output += "\n"
        lastLineIsBlank = text.isEmpty
    }

    /// Appends an empty line unless the output is empty or already ends with one.
    mutating func blankLine() {
        if !lastLineIsBlank { line("") }
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
    var text: String { output }
}
