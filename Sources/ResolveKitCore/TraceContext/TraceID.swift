/// A W3C trace id: sixteen bytes naming one distributed trace. The all-zero id is invalid.
public struct TraceID: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Bytes 0–7, big-endian.
    public var high: UInt64
    /// Bytes 8–15, big-endian.
    public var low: UInt64

    /// Creates an id from its two halves.
    public init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    /// Reads 32 lower-case hex digits, as `traceparent` and OTLP JSON carry them; `nil` for anything else, and for
    /// the all-zero id.
    public init?(hexString: some StringProtocol) {
        let bytes = Array(hexString.utf8)
        guard bytes.count == 32, let high = Hex.uint64(bytes[0..<16]), let low = Hex.uint64(bytes[16..<32]) else {
            return nil
        }
        self.init(high: high, low: low)
        guard isValid else { return nil }
    }

    /// Whether the id is not all zero.
    public var isValid: Bool { high != 0 || low != 0 }

    /// The sixteen bytes, most significant first.
    public var bytes: [UInt8] { Hex.bytes(high) + Hex.bytes(low) }

    /// 32 lower-case hex digits.
    public var hexString: String { Hex.string(high, low) }

    /// 32 lower-case hex digits.
    public var description: String { hexString }

    /// Orders ids as their bytes compare.
    public static func < (lhs: Self, rhs: Self) -> Bool { (lhs.high, lhs.low) < (rhs.high, rhs.low) }
}

/// A W3C span id (`parent-id` in `traceparent`): eight bytes naming one span. The all-zero id is invalid.
public struct SpanID: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The eight bytes, big-endian.
    public var rawValue: UInt64

    /// Creates an id from its bytes as a big-endian integer.
    public init(rawValue: UInt64) {
        self.rawValue = rawValue
    }

    /// Reads 16 lower-case hex digits; `nil` for anything else, and for the all-zero id.
    public init?(hexString: some StringProtocol) {
        let bytes = Array(hexString.utf8)
        guard bytes.count == 16, let value = Hex.uint64(bytes[...]), value != 0 else { return nil }
        self.init(rawValue: value)
    }

    /// Whether the id is not all zero.
    public var isValid: Bool { rawValue != 0 }

    /// The eight bytes, most significant first.
    public var bytes: [UInt8] { Hex.bytes(rawValue) }

    /// 16 lower-case hex digits.
    public var hexString: String { Hex.string(rawValue) }

    /// 16 lower-case hex digits.
    public var description: String { hexString }

    /// Orders ids as their bytes compare.
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// The trace flags of W3C Trace Context: one byte, of which bit 0 says the caller sampled (recorded) the trace.
public struct TraceFlags: OptionSet, Sendable, Hashable {
    /// The flag bits.
    public var rawValue: UInt8

    /// Creates flags from their bits.
    public init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    /// The caller recorded this trace: spans under it should be recorded and exported too.
    public static let sampled = TraceFlags(rawValue: 0x01)
}

/// Lower-case hexadecimal, the only form W3C Trace Context allows on the wire.
enum Hex {
    static let digits = Array("0123456789abcdef".utf8)

    /// The value of a lower-case hex digit; `nil` for any other byte (upper case included).
    static func value(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        default: nil
        }
    }

    /// Up to 16 lower-case hex digits as a big-endian integer.
    static func uint64(_ digits: ArraySlice<UInt8>) -> UInt64? {
        var value: UInt64 = 0
        for byte in digits {
            guard let digit = Hex.value(byte) else { return nil }
            value = value << 4 | UInt64(digit)
        }
        return value
    }

    static func bytes(_ value: UInt64) -> [UInt8] {
        (0..<8).map { UInt8(truncatingIfNeeded: value >> (56 - 8 * $0)) }
    }

    /// `value`'s 16 hex digits written at `index` of `buffer`; returns the index after them.
    static func write(_ value: UInt64, into buffer: UnsafeMutableBufferPointer<UInt8>, at index: Int) -> Int {
        write(value, digits: 16, into: buffer, at: index)
    }

    /// The low `count` hex digits of `value` written at `index` of `buffer`; returns the index after them.
    static func write(
        _ value: UInt64, digits count: Int, into buffer: UnsafeMutableBufferPointer<UInt8>, at index: Int
    ) -> Int {
        for position in 0..<count {
            let shift = UInt64(4 * (count - 1 - position))
            buffer[index + position] = digits[Int(value >> shift & 0xF)]
        }
        return index + count
    }

    /// `high` then `low` as 16 hex digits each (`low` left out when `nil`).
    static func string(_ high: UInt64, _ low: UInt64? = nil) -> String {
        String(unsafeUninitializedCapacity: low == nil ? 16 : 32) { buffer in
            let end = write(high, into: buffer, at: 0)
            return low.map { write($0, into: buffer, at: end) } ?? end
        }
    }
}
