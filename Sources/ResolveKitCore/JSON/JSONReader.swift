/// The cursor behind ``JSONParser``: a byte index into one contiguous buffer.
struct JSONReader {
    let bytes: UnsafeBufferPointer<UInt8>
    let maxDepth: Int
    var index = 0

    init(bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int) {
        self.bytes = bytes
        self.maxDepth = maxDepth
    }

    func error(_ code: JSONParseError.Code, _ message: String, at offset: Int? = nil) -> JSONParseError {
        JSONParseError(code: code, offset: offset ?? index, message: message)
    }

    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"): index += 1
            default: return
            }
        }
    }

    func peek() throws(JSONParseError) -> UInt8 {
        guard index < bytes.count else { throw error(.unexpectedEnd, "Unexpected end of input") }
        return bytes[index]
    }

    mutating func readValue(depth: Int) throws(JSONParseError) -> JSONValue {
        switch try peek() {
        case UInt8(ascii: "{"): return try readObject(depth: depth + 1)
        case UInt8(ascii: "["): return try readArray(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try readString())
        case UInt8(ascii: "t"): try readLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try readLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try readLiteral("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try readNumber())
        case let byte: throw error(.unexpectedByte, "Unexpected byte \(Self.describe(byte)) where a value should start")
        }
    }

    private mutating func readLiteral(_ literal: StaticString) throws(JSONParseError) {
        let start = index
        let expected = UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount)
        for byte in expected {
            guard index < bytes.count else { throw error(.unexpectedEnd, "Unexpected end of input in '\(literal)'") }
            guard bytes[index] == byte else {
                throw error(.unexpectedByte, "Invalid literal; expected '\(literal)'", at: start)
            }
            index += 1
        }
    }

    private mutating func readObject(depth: Int) throws(JSONParseError) -> JSONValue {
        guard depth <= maxDepth else {
            throw error(.depthLimitExceeded, "Nesting deeper than \(maxDepth) levels")
        }
        index += 1
        var members: JSONObject = [:]
        skipWhitespace()
        if try peek() == UInt8(ascii: "}") {
            index += 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard try peek() == UInt8(ascii: "\"") else {
                throw error(.unexpectedByte, "Expected a member name in quotes, found \(Self.describe(bytes[index]))")
            }
            let key = try readString()
            skipWhitespace()
            guard try peek() == UInt8(ascii: ":") else {
                throw error(.unexpectedByte, "Expected ':' after a member name, found \(Self.describe(bytes[index]))")
            }
            index += 1
            skipWhitespace()
            members[key] = try readValue(depth: depth)
            skipWhitespace()
            switch try peek() {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"): index += 1; return .object(members)
            case let byte: throw error(.unexpectedByte, "Expected ',' or '}' in an object, found \(Self.describe(byte))")
            }
        }
    }

    private mutating func readArray(depth: Int) throws(JSONParseError) -> JSONValue {
        guard depth <= maxDepth else {
            throw error(.depthLimitExceeded, "Nesting deeper than \(maxDepth) levels")
        }
        index += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if try peek() == UInt8(ascii: "]") {
            index += 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            elements.append(try readValue(depth: depth))
            skipWhitespace()
            switch try peek() {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"): index += 1; return .array(elements)
            case let byte: throw error(.unexpectedByte, "Expected ',' or ']' in an array, found \(Self.describe(byte))")
            }
        }
    }

    static func describe(_ byte: UInt8) -> String {
        if byte >= 0x20 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "0x" + String(byte, radix: 16, uppercase: true)
    }
}
