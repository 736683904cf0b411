extension SwiftScanner {
    /// Scans a string literal starting at `start` (its first `#` or quote) and appends it as one token.
    mutating func appendString(start: Int, hashes: Int) {
        let (line, column) = (self.line, self.column)
        let value = scanString(hashes: hashes)
        append(.string, start: start, line: line, column: column, stringValue: value)
    }

    /// Scans a string literal whose opening `#`s (if any) and quote start at `index`.
    /// - Returns: the value with escapes applied, or `nil` if it has interpolation or is unterminated.
    mutating func scanString(hashes: Int) -> String? {
        let (line, column) = (self.line, self.column)
        index += hashes
        let isMultiline = peek(1) == .quote && peek(2) == .quote
        index += isMultiline ? 3 : 1
        // Until the first escape the value is the literal's bytes as written: it is copied out only once an escape
        // makes it differ, so most literals are cut straight from the source.
        let contentStart = index
        var contentEnd = index
        var value: [UInt8]?
        var isSimple = true
        while true {
            guard let byte = peek() else {
                problems.append(ScanProblem(message: "unterminated string literal", line: line, column: column))
                return nil
            }
            if byte == .quote, !isMultiline || (peek(1) == .quote && peek(2) == .quote) {
                let quotes = isMultiline ? 3 : 1
                if (0..<hashes).allSatisfy({ peek(quotes + $0) == .hash }) {
                    contentEnd = index
                    index += quotes + hashes
                    break
                }
            }
            if byte == .newline {
                guard isMultiline else {
                    problems.append(ScanProblem(message: "unterminated string literal", line: line, column: column))
                    return nil
                }
                value?.append(byte)
                newline()
                continue
            }
            if byte == .backslash && (0..<hashes).allSatisfy({ peek(1 + $0) == .hash }) {
                let backslash = index
                index += 1 + hashes
                if peek() == .openParen {
                    index += 1
                    isSimple = false
                    skipInterpolation()
                } else {
                    // Taken out, so that appending to it does not copy it.
                    var escaped = value.take() ?? Array(bytes[contentStart..<backslash])
                    scanEscape(into: &escaped, isMultiline: isMultiline)
                    value = escaped
                }
                continue
            }
            value?.append(byte)
            index += 1
        }
        guard isSimple else { return nil }
        let text = value.map { String(decoding: $0, as: UTF8.self) } ?? self.text(contentStart..<contentEnd)
        return isMultiline ? Self.removingMultilineIndentation(text) : text
    }

    /// Applies one escape whose backslash (and `#`s) were consumed.
    mutating func scanEscape(into value: inout [UInt8], isMultiline: Bool) {
        guard let byte = peek() else { return }
        index += 1
        switch byte {
        case UInt8(ascii: "n"): value.append(.newline)
        case UInt8(ascii: "t"): value.append(.tab)
        case UInt8(ascii: "r"): value.append(.carriageReturn)
        case .zero: value.append(0)
        case UInt8(ascii: "u") where peek() == .openBrace:
            let digitsStart = index + 1
            while let next = peek(), next != .closeBrace, next != .newline { index += 1 }
            let digits = text(digitsStart..<index)
            if peek() == .closeBrace { index += 1 }
            if let scalar = UInt32(digits, radix: 16).flatMap(Unicode.Scalar.init) {
                value.append(contentsOf: Array(String(Character(scalar)).utf8))
            }
        case .newline:
            index -= 1
            guard isMultiline else { return }
            newline()
            while let next = peek(), next == .space || next == .tab { index += 1 }
        case .space, .tab:
            guard isMultiline else { return value.append(byte) }
            while let next = peek(), next == .space || next == .tab { index += 1 }
            if peek() == .newline { newline() }
        default:
            value.append(byte)
        }
    }

    /// Skips `\( … )` after its opening parenthesis, nested parentheses and string literals included.
    mutating func skipInterpolation() {
        var depth = 1
        while let byte = peek() {
            switch byte {
            case .openParen:
                depth += 1
                index += 1
            case .closeParen:
                depth -= 1
                index += 1
                if depth == 0 { return }
            case .quote:
                _ = scanString(hashes: 0)
            case .hash:
                var hashes = 0
                while peek(hashes) == .hash { hashes += 1 }
                if peek(hashes) == .quote { _ = scanString(hashes: hashes) } else { index += hashes }
            case .newline:
                newline()
            default:
                index += 1
            }
        }
    }

    /// Removes the first line break and the closing delimiter's indentation from a multi-line literal's value.
    static func removingMultilineIndentation(_ text: String) -> String {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.count >= 2 else { return text }
        let indentation = lines.removeLast()
        lines.removeFirst()
        let stripped = lines.map { line in
            line.hasPrefix(indentation) ? line.dropFirst(indentation.count) : line.drop { $0 == " " || $0 == "\t" }
        }
        return stripped.joined(separator: "\n")
    }
}
