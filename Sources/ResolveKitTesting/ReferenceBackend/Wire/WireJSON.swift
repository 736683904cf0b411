import ResolveKitCore

/// JSON with ordered object members, written the way the real backend's Python writes it.
///
/// FastAPI responses are compact (`","`, `":"`, UTF-8 kept); event envelopes are `json.dumps` output (`", "`,
/// `": "`, everything beyond ASCII as `\uXXXX`). Stored JSON objects come back from PostgreSQL `jsonb`, which orders
/// members by key length, then bytewise; ``init(stored:)`` reproduces that order.
enum WireJSON: Sendable, Equatable {
    case string(String)
    case int(Int)
    case number(Double)
    case bool(Bool)
    case null
    case array([WireJSON])
    case object([(String, WireJSON)])

    static func == (lhs: WireJSON, rhs: WireJSON) -> Bool {
        lhs.text(.compact) == rhs.text(.compact)
    }

    /// The two writers of the real backend.
    enum Style {
        /// FastAPI `JSONResponse`: no spaces, non-ASCII kept as UTF-8.
        case compact
        /// Python `json.dumps` defaults: `", "` and `": "`, ASCII only.
        case python
    }

    /// Converts a value, ordering object members as `jsonb` stores them (length, then bytes).
    init(stored value: JSONValue) {
        self.init(value) { keys in
            keys.sorted { lhs, rhs in
                lhs.utf8.count != rhs.utf8.count
                    ? lhs.utf8.count < rhs.utf8.count : Array(lhs.utf8).lexicographicallyPrecedes(Array(rhs.utf8))
            }
        }
    }

    /// Converts a value, ordering object members by name (used where Python's insertion order is unknowable).
    init(sorted value: JSONValue) {
        self.init(value) { $0.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) } }
    }

    private init(_ value: JSONValue, order: ([String]) -> [String]) {
        switch value {
        case .string(let text): self = .string(text)
        case .number(let number): self = .number(number)
        case .bool(let flag): self = .bool(flag)
        case .null: self = .null
        case .array(let elements): self = .array(elements.map { WireJSON($0, order: order) })
        case .object(let members):
            self = .object(order(Array(members.keys)).map { ($0, WireJSON(members[$0]!, order: order)) })
        }
    }

    /// A string or `null`.
    static func optional(_ text: String?) -> WireJSON { text.map(WireJSON.string) ?? .null }

    /// The JSON text in `style`.
    func text(_ style: Style) -> String {
        var output = ""
        write(into: &output, style: style)
        return output
    }

    /// The JSON text in `style` as UTF-8.
    func bytes(_ style: Style) -> [UInt8] { Array(text(style).utf8) }

    private func write(into output: inout String, style: Style) {
        switch self {
        case .string(let text): Self.writeString(text, into: &output, asciiOnly: style == .python)
        case .int(let value): output += String(value)
        case .number(let value): output += Self.numberText(value)
        case .bool(let flag): output += flag ? "true" : "false"
        case .null: output += "null"
        case .array(let elements):
            output += "["
            for (position, element) in elements.enumerated() {
                if position > 0 { output += style == .python ? ", " : "," }
                element.write(into: &output, style: style)
            }
            output += "]"
        case .object(let members):
            output += "{"
            for (position, (key, element)) in members.enumerated() {
                if position > 0 { output += style == .python ? ", " : "," }
                Self.writeString(key, into: &output, asciiOnly: style == .python)
                output += style == .python ? ": " : ":"
                element.write(into: &output, style: style)
            }
            output += "}"
        }
    }

    private static func numberText(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        if value.rounded() == value, abs(value) <= JSONValue.maxExactInteger { return String(Int64(value)) }
        return String(value)
    }

    private static func writeString(_ text: String, into output: inout String, asciiOnly: Bool) {
        output += "\""
        // Most strings (ids, times, plain text) need no escape: they are copied whole, not scalar by scalar.
        let needsEscape = text.utf8.contains { byte in
            byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || (asciiOnly && byte >= 0x80)
        }
        guard needsEscape else {
            output += text
            output += "\""
            return
        }
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case "\u{08}": output += "\\b"
            case "\u{0C}": output += "\\f"
            case _ where scalar.value < 0x20 || (asciiOnly && scalar.value >= 0x80):
                for unit in String(scalar).utf16 {
                    let hex = String(unit, radix: 16)
                    output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                }
            default: output.unicodeScalars.append(scalar)
            }
        }
        output += "\""
    }
}
