extension JSONValue {
    /// How a ``JSONValue`` is written as text.
    public struct SerializationOptions: OptionSet, Sendable, Hashable {
        /// The option bits.
        public let rawValue: Int
        /// Creates options from bits.
        public init(rawValue: Int) { self.rawValue = rawValue }

        /// Object members in ascending byte order of their names, so equal values give equal text.
        public static let sortedKeys = SerializationOptions(rawValue: 1 << 0)
        /// Newlines and two-space indentation.
        public static let prettyPrinted = SerializationOptions(rawValue: 1 << 1)
        /// Everything beyond ASCII written as `\uXXXX` escapes, as Python's `json.dumps` does.
        public static let escapeNonASCII = SerializationOptions(rawValue: 1 << 2)
    }
}

extension JSONValue {
    /// The value as JSON text in UTF-8.
    ///
    /// Whole numbers within ±2^53 are written without a fraction (`3`, not `3.0`); other numbers use the shortest
    /// text that reads back to the same `Double`. NaN and infinities, which JSON cannot express, are written as
    /// `null`.
    public func serializedBytes(options: SerializationOptions = []) -> [UInt8] {
        var writer = JSONWriter(options: options)
        writer.write(self, indent: 0)
        return writer.output
    }

    /// The value as JSON text. See ``serializedBytes(options:)``.
    public func serialized(options: SerializationOptions = []) -> String {
        String(decoding: serializedBytes(options: options), as: UTF8.self)
    }
}

struct JSONWriter {
    let options: JSONValue.SerializationOptions
    var output: [UInt8] = []

    init(options: JSONValue.SerializationOptions) {
        self.options = options
        output.reserveCapacity(256)
    }

    mutating func write(_ value: JSONValue, indent: Int) {
        switch value {
        case .null: append("null")
        case .bool(let flag): append(flag ? "true" : "false")
        case .number(let number): writeNumber(number)
        case .string(let string): writeString(string)
        case .array(let elements): writeArray(elements, indent: indent)
        case .object(let members): writeObject(members, indent: indent)
        }
    }

    private mutating func writeArray(_ elements: [JSONValue], indent: Int) {
        output.append(UInt8(ascii: "["))
        for (position, element) in elements.enumerated() {
            if position > 0 { output.append(UInt8(ascii: ",")) }
            newline(indent: indent + 1)
            write(element, indent: indent + 1)
        }
        if !elements.isEmpty { newline(indent: indent) }
        output.append(UInt8(ascii: "]"))
    }

    private mutating func writeObject(_ members: JSONObject, indent: Int) {
        output.append(UInt8(ascii: "{"))
        let keys = options.contains(.sortedKeys) ? members.keys.sorted() : Array(members.keys)
        for (position, key) in keys.enumerated() {
            if position > 0 { output.append(UInt8(ascii: ",")) }
            newline(indent: indent + 1)
            writeString(key)
            output.append(UInt8(ascii: ":"))
            if options.contains(.prettyPrinted) { output.append(UInt8(ascii: " ")) }
            write(members[key]!, indent: indent + 1)
        }
        if !members.isEmpty { newline(indent: indent) }
        output.append(UInt8(ascii: "}"))
    }

    private mutating func newline(indent: Int) {
        guard options.contains(.prettyPrinted) else { return }
        output.append(UInt8(ascii: "\n"))
        output.append(contentsOf: repeatElement(UInt8(ascii: " "), count: indent * 2))
    }

    private mutating func writeNumber(_ number: Double) {
        guard number.isFinite else {
            append("null")
            return
        }
        if number.rounded() == number, abs(number) <= JSONValue.maxExactInteger {
            ASCIIDigits.appendDecimal(Int64(number), to: &output)
        } else {
            append(String(number))
        }
    }

    private mutating func writeString(_ string: String) {
        output.append(UInt8(ascii: "\""))
        if options.contains(.escapeNonASCII), !string.utf8.allSatisfy({ $0 < 0x80 }) {
            writeScalarsEscapingNonASCII(string)
        } else {
            var string = string
            string.withUTF8 { writeEscaped($0) }
        }
        output.append(UInt8(ascii: "\""))
    }

    /// `bytes` (UTF-8) with JSON's escapes; runs that need none are copied whole, not a scalar at a time.
    private mutating func writeEscaped(_ bytes: UnsafeBufferPointer<UInt8>) {
        var runStart = 0
        for index in bytes.indices where Self.needsEscape(bytes[index]) {
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
            appendEscape(bytes[index])
            runStart = index + 1
        }
        output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart...]))
    }

    /// `string` with JSON's escapes and every non-ASCII scalar as `\u` escapes of its UTF-16 units, as Python's
    /// `json.dumps` writes by default.
    private mutating func writeScalarsEscapingNonASCII(_ string: String) {
        for scalar in string.unicodeScalars {
            if scalar.isASCII {
                let byte = UInt8(scalar.value)
                if Self.needsEscape(byte) { appendEscape(byte) } else { output.append(byte) }
            } else {
                for unit in String(scalar).utf16 { appendUnicodeEscape(unit) }
            }
        }
    }

    /// Whether an ASCII byte must be escaped in a JSON string: a quote, a backslash, a control character.
    private static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
    }

    /// The escape of a byte ``needsEscape(_:)`` says must be escaped.
    private mutating func appendEscape(_ byte: UInt8) {
        switch byte {
        case UInt8(ascii: "\""): append("\\\"")
        case UInt8(ascii: "\\"): append("\\\\")
        case UInt8(ascii: "\n"): append("\\n")
        case UInt8(ascii: "\r"): append("\\r")
        case UInt8(ascii: "\t"): append("\\t")
        case 0x08: append("\\b")
        case 0x0C: append("\\f")
        default: appendUnicodeEscape(UInt16(byte))
        }
    }

    private mutating func appendUnicodeEscape(_ unit: UInt16) {
        let hex = String(unit, radix: 16)
        append("\\u" + String(repeating: "0", count: 4 - hex.count) + hex)
    }

    private mutating func append(_ text: String) {
        output.append(contentsOf: text.utf8)
    }
}
