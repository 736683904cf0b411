extension JSONReader {
    /// Reads a string starting at its opening quote; decodes escapes and validates UTF-8.
    mutating func readString() throws(JSONParseError) -> String {
        let openingQuote = index
        index += 1
        let start = index
        var needsUnescaping = false
        while true {
            guard index < bytes.count else {
                throw error(.unexpectedEnd, "Unterminated string starting", at: openingQuote)
            }
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") { break }
            if byte < 0x20 {
                throw error(.controlCharacterInString, "Raw control character \(Self.describe(byte)) in a string")
            }
            if byte == UInt8(ascii: "\\") {
                needsUnescaping = true
                index += 1
            }
            index += 1
        }
        let end = index
        index += 1
        if !needsUnescaping {
            return try makeString(UnsafeBufferPointer(rebasing: bytes[start..<end]), offset: start)
        }
        var unescaped: [UInt8] = []
        unescaped.reserveCapacity(end - start)
        var position = start
        while position < end {
            let byte = bytes[position]
            guard byte == UInt8(ascii: "\\") else {
                unescaped.append(byte)
                position += 1
                continue
            }
            position = try appendEscape(at: position, to: &unescaped)
        }
        return try unescaped.withUnsafeBufferPointer { buffer throws(JSONParseError) in
            try makeString(buffer, offset: start)
        }
    }

    private func makeString(_ buffer: UnsafeBufferPointer<UInt8>, offset: Int) throws(JSONParseError) -> String {
        // Most texts (keys, ids, names) are ASCII, valid UTF-8 as they are: decoded without the generic validation,
        // which looks up type metadata on every call (63 against 27 ns for a short key).
        if buffer.allSatisfy({ $0 < 0x80 }) { return String(decoding: buffer, as: UTF8.self) }
        guard let string = String(validating: buffer, as: UTF8.self) else {
            throw error(.invalidUTF8, "Invalid UTF-8 in a string", at: offset)
        }
        return string
    }

    /// Decodes the escape at `position` (a backslash) and returns the position after it.
    private func appendEscape(at position: Int, to output: inout [UInt8]) throws(JSONParseError) -> Int {
        let escaped = bytes[position + 1]
        switch escaped {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): output.append(escaped)
        case UInt8(ascii: "b"): output.append(0x08)
        case UInt8(ascii: "f"): output.append(0x0C)
        case UInt8(ascii: "n"): output.append(0x0A)
        case UInt8(ascii: "r"): output.append(0x0D)
        case UInt8(ascii: "t"): output.append(0x09)
        case UInt8(ascii: "u"): return try appendUnicodeEscape(at: position, to: &output)
        default: throw error(.invalidEscape, "Invalid escape '\\\(Self.describe(escaped))'", at: position)
        }
        return position + 2
    }

    private func appendUnicodeEscape(at position: Int, to output: inout [UInt8]) throws(JSONParseError) -> Int {
        let high = try hexQuad(at: position + 2)
        var next = position + 6
        var scalarValue = UInt32(high)
        if (0xD800...0xDBFF).contains(high) {
            guard next + 1 < bytes.count, bytes[next] == UInt8(ascii: "\\"), bytes[next + 1] == UInt8(ascii: "u") else {
                throw error(.invalidUnicodeEscape, "High surrogate without a following low surrogate", at: position)
            }
            let low = try hexQuad(at: next + 2)
            guard (0xDC00...0xDFFF).contains(low) else {
                throw error(.invalidUnicodeEscape, "High surrogate followed by a non-low surrogate", at: next)
            }
            scalarValue = 0x10000 + ((UInt32(high) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
            next += 6
        } else if (0xDC00...0xDFFF).contains(high) {
            throw error(.invalidUnicodeEscape, "Low surrogate without a preceding high surrogate", at: position)
        }
        guard let scalar = Unicode.Scalar(scalarValue) else {
            throw error(.invalidUnicodeEscape, "Invalid Unicode scalar", at: position)
        }
        output.append(contentsOf: UTF8.encode(scalar)!)
        return next
    }

    private func hexQuad(at position: Int) throws(JSONParseError) -> UInt16 {
        guard position + 4 <= bytes.count else {
            throw error(.invalidUnicodeEscape, "A \\u escape needs four hex digits", at: position - 2)
        }
        var value: UInt16 = 0
        for offset in 0..<4 {
            let byte = bytes[position + offset]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw error(.invalidUnicodeEscape, "A \\u escape needs four hex digits", at: position - 2)
            }
            value = value << 4 | UInt16(digit)
        }
        return value
    }
}
