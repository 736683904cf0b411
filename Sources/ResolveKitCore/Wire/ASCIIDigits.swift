/// Numbers written as ASCII digits straight into a byte buffer, for the writers that build JSON byte by byte and
/// would otherwise make a `String` per number (an OTLP export writes several per span).
package enum ASCIIDigits {
    /// Appends `value` in decimal, with a `-` when it is negative.
    package static func appendDecimal(_ value: Int64, to bytes: inout [UInt8]) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        appendDecimal(value.magnitude, to: &bytes)
    }

    /// Appends `value` in decimal.
    package static func appendDecimal(_ value: UInt64, to bytes: inout [UInt8]) {
        withDecimal(value) { bytes.append(contentsOf: $0) }
    }

    /// Calls `body` with `value`'s decimal digits, written in a buffer on the stack.
    package static func withDecimal<Result>(
        _ value: UInt64, _ body: (UnsafeBufferPointer<UInt8>) -> Result
    ) -> Result {
        var magnitude = value
        // UInt64.max has 20 digits.
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var start = digits.endIndex
            repeat {
                start -= 1
                digits[start] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            return body(UnsafeBufferPointer(rebasing: digits[start...]))
        }
    }

    /// Appends `value` as 16 lower-case hex digits.
    package static func appendHex(_ value: UInt64, to bytes: inout [UInt8]) {
        for shift in stride(from: 60, through: 0, by: -4) {
            bytes.append(Hex.digits[Int(value >> UInt64(shift) & 0xF)])
        }
    }
}
