/// One command as the client sends it: an array of bulk strings, the name first.
///
/// ```swift
/// let command = RedisCommand("SET", "greeting", "hello", "PX", "5000")
/// ```
public struct RedisCommand: Sendable, Hashable, CustomStringConvertible {
    /// The name and the arguments, as bytes.
    public var parts: [[UInt8]]

    /// A command from its name and text arguments.
    public init(_ name: String, _ arguments: String...) {
        parts = [Array(name.utf8)] + arguments.map { Array($0.utf8) }
    }

    /// A command from its name and text arguments.
    public init(_ name: String, arguments: [String]) {
        parts = [Array(name.utf8)] + arguments.map { Array($0.utf8) }
    }

    /// A command from raw parts (binary-safe), the name first.
    public init(parts: [[UInt8]]) {
        self.parts = parts
    }

    /// The command name in upper case, e.g. `EVALSHA`.
    public var name: String { String(decoding: parts.first ?? [], as: UTF8.self).uppercased() }

    /// The name only: arguments may hold passwords or user data, so neither errors nor logs show them.
    public var description: String { name }

    /// Appends the command as a RESP array of bulk strings.
    public func encode(into bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "*"))
        bytes += String(parts.count).utf8
        bytes += [13, 10]
        for part in parts {
            bytes.append(UInt8(ascii: "$"))
            bytes += String(part.count).utf8
            bytes += [13, 10]
            bytes += part
            bytes += [13, 10]
        }
    }

    /// The command as a RESP array of bulk strings.
    public var encoded: [UInt8] {
        var bytes: [UInt8] = []
        encode(into: &bytes)
        return bytes
    }
}
