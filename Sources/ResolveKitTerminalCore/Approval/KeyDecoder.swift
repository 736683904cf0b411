/// A key an operator pressed, decoded from raw terminal bytes.
package enum Key: Sendable, Hashable {
    /// A printable ASCII character.
    case character(Character)
    /// Arrow up.
    case up
    /// Arrow down.
    case down
    /// Enter (CR or LF).
    case enter
    /// Escape alone.
    case escape
    /// Ctrl-C.
    case controlC
    /// Ctrl-D.
    case controlD
    /// Anything else (other escape sequences, non-ASCII, control bytes).
    case other
}

/// Turns raw-mode input bytes into keys. Pure and incremental: an escape sequence split across chunks is kept
/// until its end arrives; a lone Escape at the end of a chunk is the Escape key.
package struct KeyDecoder: Sendable {
    private var pending: [UInt8] = []

    package init() {}

    /// The keys completed by `bytes`.
    package mutating func decode(_ bytes: [UInt8]) -> [Key] {
        let input = pending + bytes
        pending = []
        var keys: [Key] = []
        var index = 0
        while index < input.count {
            let byte = input[index]
            guard byte == 0x1B else {
                keys.append(Self.key(for: byte))
                index += 1
                continue
            }
            guard index + 1 < input.count else {
                keys.append(.escape)
                break
            }
            let introducer = input[index + 1]
            guard introducer == UInt8(ascii: "[") || introducer == UInt8(ascii: "O") else {
                keys.append(.escape)
                index += 1
                continue
            }
            var end = index + 2
            while end < input.count, !(0x40...0x7E).contains(input[end]) { end += 1 }
            guard end < input.count else {
                pending = Array(input[index...])
                break
            }
            switch input[end] {
            case UInt8(ascii: "A"): keys.append(.up)
            case UInt8(ascii: "B"): keys.append(.down)
            default: keys.append(.other)
            }
            index = end + 1
        }
        return keys
    }

    private static func key(for byte: UInt8) -> Key {
        switch byte {
        case 0x0D, 0x0A: .enter
        case 0x03: .controlC
        case 0x04: .controlD
        case 0x20...0x7E: .character(Character(Unicode.Scalar(byte)))
        default: .other
        }
    }
}
