import ResolveKitCore

/// Spells values as Swift source: string literals and `JSONValue` expressions.
enum SwiftLiteral {
    /// A double-quoted Swift string literal for `text`.
    static func string(_ text: String) -> String {
        if !needsEscapes(text) {
            return "\"" + text + "\""
        }
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": result += "\\\\"
            case "\"": result += "\\\""
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                result += "\\u{" + String(scalar.value, radix: 16) + "}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    /// Whether `text` holds a control character, `"`, `\\` or DEL, which a string literal must escape. The bytes
    /// are scanned in place: every string of the generated file is checked.
    private static func needsEscapes(_ text: String) -> Bool {
        func needsEscape(_ byte: UInt8) -> Bool { byte < 0x20 || byte == 0x22 || byte == 0x5C || byte == 0x7F }
        return text.utf8.withContiguousStorageIfAvailable { $0.contains(where: needsEscape) }
            ?? text.utf8.contains(where: needsEscape)
    }

    /// A number as a Swift literal: whole numbers without a fraction.
    static func number(_ value: Double) -> String {
        if value.rounded() == value, abs(value) <= JSONValue.maxExactInteger { return String(Int64(value)) }
        return "\(value)"
    }

    /// Writes what ``number(_:)`` returns: a whole number's digits straight into the writer (the bounds of `Int`
    /// take more digits than a string holds without an allocation).
    static func writeNumber(_ value: Double, to writer: inout SwiftWriter) {
        guard value.rounded() == value, abs(value) <= JSONValue.maxExactInteger else {
            writer.write(number(value))
            return
        }
        let integer = Int64(value)
        if integer < 0 { writer.write(byte: UInt8(ascii: "-")) }
        ASCIIDigits.withDecimal(integer.magnitude) { writer.write(bytes: $0) }
    }

    /// The value as a one-line `JSONValue` expression, or `nil` if it holds a non-empty object or an array with
    /// containers (those are written over several lines).
    static func inline(_ value: JSONValue) -> String? {
        switch value {
        case .string(let text): return ".string(\(string(text)))"
        case .number(let number): return ".number(\(self.number(number)))"
        case .bool(let flag): return ".bool(\(flag))"
        case .null: return ".null"
        case .object(let members): return members.isEmpty ? ".object([:])" : nil
        case .array(let elements):
            let parts = elements.map { element -> String? in
                switch element {
                case .array, .object: nil
                default: inline(element)
                }
            }
            guard !parts.contains(where: { $0 == nil }) else { return nil }
            return ".array([" + parts.compactMap { $0 }.joined(separator: ", ") + "])"
        }
    }

    /// Writes the members of an object, keys sorted, one per line (`"key": value,`).
    static func writeMembers(_ members: JSONObject, to writer: inout SwiftWriter) {
        for (key, value) in members.sorted(by: { $0.key < $1.key }) {
            write(value, key: key, to: &writer)
        }
    }

    /// Writes `text` as a string literal, straight into the writer.
    static func writeString(_ text: String, to writer: inout SwiftWriter) {
        if needsEscapes(text) {
            writer.write(string(text))
            return
        }
        writer.write(byte: UInt8(ascii: "\""))
        writer.write(text)
        writer.write(byte: UInt8(ascii: "\""))
    }

    /// Whether ``inline(_:)`` spells `value` on one line.
    private static func isInline(_ value: JSONValue) -> Bool {
        switch value {
        case .object(let members): members.isEmpty
        case .array(let elements):
            elements.allSatisfy {
                switch $0 {
                case .array, .object: false
                default: true
                }
            }
        default: true
        }
    }

    /// Writes what ``inline(_:)`` returns, without building it first.
    private static func writeInline(_ value: JSONValue, to writer: inout SwiftWriter) {
        switch value {
        case .string(let text):
            writer.write(".string(")
            writeString(text, to: &writer)
            writer.write(byte: UInt8(ascii: ")"))
        case .array(let elements):
            writer.write(".array([")
            for (index, element) in elements.enumerated() {
                if index > 0 { writer.write(", ") }
                writeInline(element, to: &writer)
            }
            writer.write("])")
        case .number(let number):
            writer.write(".number(")
            writeNumber(number, to: &writer)
            writer.write(byte: UInt8(ascii: ")"))
        case .bool(let flag):
            writer.write(flag ? ".bool(true)" : ".bool(false)")
        default:
            writer.write(inline(value) ?? ".null")
        }
    }

    /// Writes `"key": value,` (or `value,` without a key), over several lines for containers.
    static func write(_ value: JSONValue, key: String?, to writer: inout SwiftWriter) {
        writer.startLine()
        if let key {
            writeString(key, to: &writer)
            writer.write(": ")
        }
        if isInline(value) {
            writeInline(value, to: &writer)
            writer.write(byte: UInt8(ascii: ","))
            writer.endLine()
            return
        }
        switch value {
        case .object(let members):
            writer.write(".object([")
            writer.endLine()
            writer.indented(footer: "]),") { writeMembers(members, to: &$0) }
        case .array(let elements):
            writer.write(".array([")
            writer.endLine()
            writer.indented(footer: "]),") { writer in
                for element in elements { write(element, key: nil, to: &writer) }
            }
        default:
            writer.write(".null,")
            writer.endLine()
        }
    }
}
