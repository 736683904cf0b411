/// Builds Swift source line by line into bytes, tracking indentation so that renderers never count spaces.
struct SwiftWriter: Sendable {
    private var output: [UInt8] = []
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
            startLine()
            output.append(contentsOf: text.utf8)
        }
        endLine(blank: text.isEmpty)
    }

    /// Starts a line written in parts (``write(_:)``, then ``endLine(blank:)``), without joining them first.
    mutating func startLine() {
        let width = level * indentation
        if width <= Self.spaces.count {
            output.append(contentsOf: Self.spaces[..<width])
        } else {
            output.append(contentsOf: repeatElement(UInt8(ascii: " "), count: width))
        }
    }

    /// Appends part of the current line.
    mutating func write(_ text: String) {
        output.append(contentsOf: text.utf8)
    }

    /// Appends one byte of the current line.
    mutating func write(byte: UInt8) {
        output.append(byte)
    }

    /// Ends the current line.
    mutating func endLine(blank: Bool = false) {
        output.append(UInt8(ascii: "\n"))
        lastLineIsBlank = blank
    }

    /// Enough spaces for any common indentation, appended as one slice rather than level by level.
    private static let spaces = [UInt8](repeating: UInt8(ascii: " "), count: 64)

    /// Appends an empty line unless the output is empty or already ends with one.
    mutating func blankLine() {
        if !lastLineIsBlank { line("") }
    }

    /// Appends what another writer wrote at indentation level zero, as if written here.
    mutating func append(_ other: SwiftWriter) {
        guard !other.output.isEmpty else { return }
        output.append(contentsOf: other.output)
        lastLineIsBlank = other.lastLineIsBlank
    }

    /// The number of bytes written so far.
    var count: Int { output.count }

    /// Makes room for `capacity` bytes, so that appending a known amount does not copy the output as it grows.
    mutating func reserveCapacity(_ capacity: Int) {
        output.reserveCapacity(capacity)
    }

    /// Writes `header`, then `body` one level deeper, then `footer`; with `indentedOnly` the header line was
    /// already written.
    mutating func block(
        _ header: String, footer: String = "}", indentedOnly: Bool = false, _ body: (inout SwiftWriter) -> Void
    ) {
        if !indentedOnly { line(header) }
        level += 1
        body(&self)
        level -= 1
        line(footer)
    }

    /// The text, ending with one newline.
    var text: String { String(decoding: output, as: UTF8.self) }
}
