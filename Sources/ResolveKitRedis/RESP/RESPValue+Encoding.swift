extension RESPValue {
    /// The value in RESP3, as a server would send it; parsing the bytes gives the value back.
    ///
    /// Simple strings and errors must not hold CR or LF (the parser never makes one that does); a verbatim string's
    /// format is three printable ASCII characters.
    public var encoded: [UInt8] {
        var bytes: [UInt8] = []
        encode(into: &bytes)
        return bytes
    }

    /// Appends the value in RESP3 to `bytes`.
    public func encode(into bytes: inout [UInt8]) {
        switch self {
        case .simpleString(let text): Self.line(UInt8(ascii: "+"), text, &bytes)
        case .simpleError(let text): Self.line(UInt8(ascii: "-"), text, &bytes)
        case .integer(let value): Self.line(UInt8(ascii: ":"), String(value), &bytes)
        case .bulkString(let content): Self.bulk(UInt8(ascii: "$"), content, &bytes)
        case .null: bytes += [UInt8(ascii: "_"), 13, 10]
        case .array(let values): Self.aggregate(UInt8(ascii: "*"), values, &bytes)
        case .boolean(let value): Self.line(UInt8(ascii: "#"), value ? "t" : "f", &bytes)
        case .double(let value): Self.line(UInt8(ascii: ","), Self.text(value), &bytes)
        case .bigNumber(let text): Self.line(UInt8(ascii: "("), text, &bytes)
        case .bulkError(let text): Self.bulk(UInt8(ascii: "!"), Array(text.utf8), &bytes)
        case .verbatimString(let format, let text):
            Self.bulk(UInt8(ascii: "="), Array(format.utf8) + [UInt8(ascii: ":")] + text, &bytes)
        case .map(let pairs): Self.pairs(UInt8(ascii: "%"), pairs, &bytes)
        case .set(let values): Self.aggregate(UInt8(ascii: "~"), values, &bytes)
        case .push(let values): Self.aggregate(UInt8(ascii: ">"), values, &bytes)
        case .attributed(let attributes, let value):
            Self.pairs(UInt8(ascii: "|"), attributes, &bytes)
            value.encode(into: &bytes)
        }
    }

    private static func line(_ type: UInt8, _ text: String, _ bytes: inout [UInt8]) {
        bytes.append(type)
        bytes += text.utf8
        bytes += [13, 10]
    }

    private static func bulk(_ type: UInt8, _ content: [UInt8], _ bytes: inout [UInt8]) {
        line(type, String(content.count), &bytes)
        bytes += content
        bytes += [13, 10]
    }

    private static func aggregate(_ type: UInt8, _ values: [RESPValue], _ bytes: inout [UInt8]) {
        line(type, String(values.count), &bytes)
        for value in values { value.encode(into: &bytes) }
    }

    private static func pairs(_ type: UInt8, _ pairs: [RESPPair], _ bytes: inout [UInt8]) {
        line(type, String(pairs.count), &bytes)
        for pair in pairs {
            pair.key.encode(into: &bytes)
            pair.value.encode(into: &bytes)
        }
    }

    private static func text(_ value: Double) -> String {
        if value.isNaN { return "nan" }
        if value.isInfinite { return value < 0 ? "-inf" : "inf" }
        return String(value)
    }
}
