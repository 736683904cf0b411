/// A minimal terminal emulator for tests: keeps every row written (scrollback included) and applies the few
/// escape sequences the terminal module emits (cursor up, clear to end of screen or line, colours ignored).
struct VirtualScreen: Sendable {
    private(set) var rows: [[Character]] = [[]]
    private var row = 0
    private var column = 0
    private var pendingEscape: [Unicode.Scalar]?
    var size: TerminalSize

    init(size: TerminalSize) { self.size = size }

    /// The rows as text, trailing spaces and trailing empty rows removed.
    var lines: [String] {
        var lines = rows.map { String($0).replacing(/\s+$/, with: "") }
        while lines.last?.isEmpty == true { lines.removeLast() }
        return lines
    }

    mutating func write(_ text: String) {
        for scalar in text.unicodeScalars {
            if var escape = pendingEscape {
                escape.append(scalar)
                if escape.count == 1, scalar != "[" {
                    pendingEscape = nil
                } else if escape.count > 1, (0x40...0x7E).contains(scalar.value) {
                    pendingEscape = nil
                    apply(escape)
                } else {
                    pendingEscape = escape
                }
                continue
            }
            switch scalar {
            case "\u{1B}": pendingEscape = []
            case "\n": newline()
            case "\r": column = 0
            default: put(Character(scalar))
            }
        }
    }

    private mutating func put(_ character: Character) {
        if column >= size.columns { newline() }
        while rows[row].count < column { rows[row].append(" ") }
        if column < rows[row].count { rows[row][column] = character } else { rows[row].append(character) }
        column += 1
    }

    private mutating func newline() {
        row += 1
        column = 0
        if row == rows.count { rows.append([]) }
    }

    /// Applies `[` parameters final.
    private mutating func apply(_ escape: [Unicode.Scalar]) {
        guard let final = escape.last else { return }
        let parameters = String(String.UnicodeScalarView(escape.dropFirst().dropLast()))
        let count = Int(parameters) ?? 1
        switch final {
        case "A":
            let top = max(0, rows.count - size.rows)
            row = max(top, row - count)
        case "J":
            rows[row] = Array(rows[row].prefix(column))
            rows.removeSubrange((row + 1)...)
        case "K":
            if parameters == "2" { rows[row] = [] } else { rows[row] = Array(rows[row].prefix(column)) }
        default:
            break
        }
    }
}
