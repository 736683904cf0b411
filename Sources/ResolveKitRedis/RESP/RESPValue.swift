/// One reply (or part of one) in the Redis serialization protocol, RESP2 or RESP3.
///
/// RESP2 has simple strings, errors, integers, bulk strings and arrays (with null bulk strings and arrays); RESP3 adds
/// nulls, booleans, doubles, big numbers, bulk errors, verbatim strings, maps, sets, attributes and pushes. Both
/// nulls of RESP2 (`$-1`, `*-1`) parse as ``null``, as RESP3's `_` does.
public indirect enum RESPValue: Sendable, Hashable {
    /// `+OK`: a short status line.
    case simpleString(String)
    /// `-ERR message`: an error reply; ``RedisError`` reads its prefix (`WRONGTYPE`, `NOSCRIPT`, …).
    case simpleError(String)
    /// `:42`.
    case integer(Int64)
    /// `$5\r\nhello`: binary-safe bytes.
    case bulkString([UInt8])
    /// `_`, `$-1` or `*-1`.
    case null
    /// `*2\r\n…`.
    case array([RESPValue])
    /// `#t` or `#f` (RESP3).
    case boolean(Bool)
    /// `,3.14`, `,inf`, `,-inf`, `,nan` (RESP3).
    case double(Double)
    /// `(3492890328409238509324850943850943825024385`: kept as its decimal text (RESP3).
    case bigNumber(String)
    /// `!21\r\nSYNTAX invalid syntax`: an error with a binary-safe message (RESP3).
    case bulkError(String)
    /// `=15\r\ntxt:Some string`: text with a three-letter format such as `txt` or `mkd` (RESP3).
    case verbatimString(format: String, text: [UInt8])
    /// `%2\r\n…`: key/value pairs in the server's order (RESP3).
    case map([RESPPair])
    /// `~3\r\n…`: an unordered collection, in the server's order (RESP3).
    case set([RESPValue])
    /// `>3\r\n…`: out-of-band data such as a pub/sub message or a client-tracking invalidation (RESP3).
    case push([RESPValue])
    /// `|1\r\n…` followed by a value: the value with the auxiliary attributes the server sent before it (RESP3).
    case attributed(attributes: [RESPPair], value: RESPValue)

    /// The value without attributes the server put before it.
    public var withoutAttributes: RESPValue {
        if case .attributed(_, let value) = self { return value.withoutAttributes }
        return self
    }

    /// The text of a simple string, bulk string or verbatim string (bytes decoded as UTF-8); `nil` for others.
    public var string: String? {
        switch withoutAttributes {
        case .simpleString(let text): return text
        case .bulkString(let bytes): return String(decoding: bytes, as: UTF8.self)
        case .verbatimString(_, let text): return String(decoding: text, as: UTF8.self)
        default: return nil
        }
    }

    /// The bytes of a bulk, simple or verbatim string; `nil` for others.
    public var bytes: [UInt8]? {
        switch withoutAttributes {
        case .bulkString(let bytes): return bytes
        case .simpleString(let text): return Array(text.utf8)
        case .verbatimString(_, let text): return text
        default: return nil
        }
    }

    /// An integer, or a string holding one (Lua scripts and `GET` answer with either); `nil` otherwise.
    public var integer: Int64? {
        switch withoutAttributes {
        case .integer(let value): return value
        case .bulkString, .simpleString: return string.flatMap { Int64($0) }
        default: return nil
        }
    }

    /// The elements of an array, set or push; the keys and values in turn of a map (RESP2 sends maps as such flat
    /// arrays, so `HGETALL` reads the same either way); `nil` for others.
    public var elements: [RESPValue]? {
        switch withoutAttributes {
        case .array(let values), .set(let values), .push(let values): return values
        case .map(let pairs): return pairs.flatMap { [$0.key, $0.value] }
        default: return nil
        }
    }

    /// Whether this is ``null``.
    public var isNull: Bool { withoutAttributes == .null }

    /// The message of a simple or bulk error; `nil` for others.
    public var errorMessage: String? {
        switch withoutAttributes {
        case .simpleError(let message), .bulkError(let message): return message
        default: return nil
        }
    }
}

/// One key/value pair of a RESP3 map or attribute.
public struct RESPPair: Sendable, Hashable {
    /// The key.
    public var key: RESPValue
    /// The value.
    public var value: RESPValue

    /// Creates a pair.
    public init(_ key: RESPValue, _ value: RESPValue) {
        self.key = key
        self.value = value
    }
}
