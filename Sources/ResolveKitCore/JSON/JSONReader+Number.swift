extension JSONReader {
    /// Reads a number. Integer literals (no fraction, no exponent) must lie within ±2^53.
    mutating func readNumber() throws(JSONParseError) -> Double {
        let start = index
        var isNegative = false
        if bytes[index] == UInt8(ascii: "-") {
            isNegative = true
            index += 1
        }
        let integerStart = index
        guard index < bytes.count, Self.isDigit(bytes[index]) else {
            throw error(.invalidNumber, "A number needs a digit after '-'", at: start)
        }
        if bytes[index] == UInt8(ascii: "0"), index + 1 < bytes.count, Self.isDigit(bytes[index + 1]) {
            throw error(.invalidNumber, "Numbers may not have leading zeros", at: start)
        }
        skipDigits()
        let integerEnd = index
        var isInteger = true
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            guard index < bytes.count, Self.isDigit(bytes[index]) else {
                throw error(.invalidNumber, "A decimal point must be followed by a digit", at: start)
            }
            skipDigits()
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            isInteger = false
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            guard index < bytes.count, Self.isDigit(bytes[index]) else {
                throw error(.invalidNumber, "An exponent needs at least one digit", at: start)
            }
            skipDigits()
        }
        if isInteger {
            return try exactInteger(digits: integerStart..<integerEnd, isNegative: isNegative, start: start)
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        guard let value = Double(text), value.isFinite else {
            throw error(.numberOutOfRange, "Number \(text) is too large for a Double", at: start)
        }
        return value
    }

    private func exactInteger(digits: Range<Int>, isNegative: Bool, start: Int) throws(JSONParseError) -> Double {
        var magnitude: UInt64 = 0
        for position in digits {
            let digit = UInt64(bytes[position] - UInt8(ascii: "0"))
            let (times10, overflow1) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(digit)
            guard !overflow1, !overflow2, sum <= 9_007_199_254_740_992 else {
                throw error(
                    .integerOutOfRange,
                    "Integer beyond ±2^53 cannot be represented exactly; send it as a string",
                    at: start
                )
            }
            magnitude = sum
        }
        let value = Double(magnitude)
        return isNegative ? -value : value
    }

    private mutating func skipDigits() {
        while index < bytes.count, Self.isDigit(bytes[index]) { index += 1 }
    }

    static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }
}
