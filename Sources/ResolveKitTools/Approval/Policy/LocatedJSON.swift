/// A JSON document with the line and column where each value and member name starts, so a policy's mistakes
/// are reported at `file:line:column`. Core's parser checks the syntax first; this pass only locates.
indirect enum LocatedJSON: Sendable {
    /// A 1-based line and column (in characters).
    struct Position: Sendable, Hashable {
        var line: Int
        var column: Int
    }

    /// An object member.
    struct Member: Sendable {
        var key: String
        var keyPosition: Position
        var value: LocatedJSON
    }

    case object([Member], Position)
    case array([LocatedJSON], Position)
    case scalar(JSONValue, Position)

    /// Where the value starts.
    var position: Position {
        switch self {
        case .object(_, let position), .array(_, let position), .scalar(_, let position): position
        }
    }

    /// The value without positions.
    var value: JSONValue {
        switch self {
        case .object(let members, _):
            var object: JSONObject = [:]
            for member in members { object[member.key] = member.value.value }
            return .object(object)
        case .array(let items, _): return .array(items.map(\.value))
        case .scalar(let value, _): return value
        }
    }

    /// The members of an object, or `nil`.
    var members: [Member]? {
        if case .object(let members, _) = self { return members }
        return nil
    }

    /// Locates every value of `bytes`, which must be valid JSON.
    static func parse(_ bytes: [UInt8]) -> LocatedJSON? {
        var reader = Reader(bytes: bytes)
        return reader.value()
    }

    private struct Reader {
        let bytes: [UInt8]
        var index = 0
        var line = 1
        var column = 1

        init(bytes: [UInt8]) { self.bytes = bytes }

        var position: Position { Position(line: line, column: column) }

        mutating func advance() {
            let byte = bytes[index]
            index += 1
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }

        mutating func skipSpace() {
            while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { advance() }
        }

        mutating func value() -> LocatedJSON? {
            skipSpace()
            guard index < bytes.count else { return nil }
            let start = position
            switch bytes[index] {
            case UInt8(ascii: "{"):
                advance()
                var members: [Member] = []
                skipSpace()
                if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
                    advance()
                    return .object(members, start)
                }
                while index < bytes.count {
                    skipSpace()
                    let keyPosition = position
                    guard let key = scalar()?.stringValue else { return nil }
                    skipSpace()
                    guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return nil }
                    advance()
                    guard let item = value() else { return nil }
                    members.append(Member(key: key, keyPosition: keyPosition, value: item))
                    skipSpace()
                    guard index < bytes.count else { return nil }
                    let separator = bytes[index]
                    advance()
                    if separator == UInt8(ascii: "}") { return .object(members, start) }
                    guard separator == UInt8(ascii: ",") else { return nil }
                }
                return nil
            case UInt8(ascii: "["):
                advance()
                var items: [LocatedJSON] = []
                skipSpace()
                if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
                    advance()
                    return .array(items, start)
                }
                while index < bytes.count {
                    guard let item = value() else { return nil }
                    items.append(item)
                    skipSpace()
                    guard index < bytes.count else { return nil }
                    let separator = bytes[index]
                    advance()
                    if separator == UInt8(ascii: "]") { return .array(items, start) }
                    guard separator == UInt8(ascii: ",") else { return nil }
                }
                return nil
            default:
                return scalar().map { .scalar($0, start) }
            }
        }

        /// A string, number or literal, parsed by Core from its extent.
        mutating func scalar() -> JSONValue? {
            let start = index
            if bytes[index] == UInt8(ascii: "\"") {
                advance()
                while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
                    if bytes[index] == UInt8(ascii: "\\") { advance() }
                    if index < bytes.count { advance() }
                }
                guard index < bytes.count else { return nil }
                advance()
            } else {
                while index < bytes.count, !",]} \t\r\n".utf8.contains(bytes[index]) { advance() }
            }
            return try? JSONValue(parsing: bytes[start..<index])
        }
    }
}
