import Glibc

extension SSEParser {
    /// Interprets one complete line (without its line end); `inChunk` tells whether it lies in the chunk being
    /// parsed, where fields may borrow it, or in the transient buffer of a line split across chunks.
    mutating func processLine(_ whole: UnsafeRawBufferPointer, inChunk: Bool, _ onOutput: (BorrowedOutput) -> Void) {
        var line = whole
        if atStreamStart {
            atStreamStart = false
            if line.count >= 3, line[0] == 0xEF, line[1] == 0xBB, line[2] == 0xBF {
                line = UnsafeRawBufferPointer(rebasing: line[3...])
            }
        }
        guard let base = line.baseAddress, !line.isEmpty else {
            endBlock(onOutput)
            return
        }
        guard !discardingEvent else { return }
        let (field, colon) = Self.field(of: line)
        var valueStart = min(colon + 1, line.count)
        if valueStart < line.count, line[valueStart] == UInt8(ascii: " ") { valueStart += 1 }
        let value = UnsafeRawBufferPointer(start: base + valueStart, count: line.count - valueStart)
        switch field {
        case .comment:
            onOutput(.comment(value))
        case .data:
            appendData(value, inChunk: inChunk, onOutput)
        case .id:
            if Self.find(0, in: base + valueStart, from: 0, to: value.count) == value.count {
                id.set(value, inChunk: inChunk)
            }
        case .event:
            type.set(value, inChunk: inChunk)
        case .retry:
            if let milliseconds = Self.digits(value) {
                reconnectionTime = milliseconds
                retry = milliseconds
            }
        case .other:
            break
        }
    }

    enum Field {
        case comment, data, id, event, retry, other
    }

    /// The field a line sets and the offset of its colon (the line length when it has none).
    private static func field(of line: UnsafeRawBufferPointer) -> (Field, Int) {
        let base = line.baseAddress!
        // The usual spellings, `name:`, compared as packed integers rather than with a `memcmp` call per line.
        switch line.load(as: UInt8.self) {
        case UInt8(ascii: ":"): return (.comment, 0)
        case UInt8(ascii: "d") where starts(line, with: dataName, length: 4): return (.data, 4)
        case UInt8(ascii: "i") where starts(line, with: idName, length: 2): return (.id, 2)
        case UInt8(ascii: "e") where starts(line, with: eventName, length: 5): return (.event, 5)
        case UInt8(ascii: "r") where starts(line, with: retryName, length: 5): return (.retry, 5)
        default: break
        }
        let colon = find(UInt8(ascii: ":"), in: base, from: 0, to: line.count)
        let name = UnsafeRawBufferPointer(start: base, count: colon)
        if equals(name, "data") { return (.data, colon) }
        if equals(name, "id") { return (.id, colon) }
        if equals(name, "event") { return (.event, colon) }
        if equals(name, "retry") { return (.retry, colon) }
        return (.other, colon)
    }

    private mutating func appendData(
        _ value: UnsafeRawBufferPointer, inChunk: Bool, _ onOutput: (BorrowedOutput) -> Void
    ) {
        let separator = data.isSet ? 1 : 0
        // The limit counts decoded UTF-8: an invalid byte becomes U+FFFD (3 bytes), so the raw size is not enough.
        // Below a third of the limit no decoding can cross it, so ordinary events are never decoded here.
        if (data.count + separator + value.count) * 3 > limits.maxEventDataSize {
            let current = decodedDataSize ?? Self.decodedSize(data.bytes)
            let size = current + separator + Self.decodedSize(value)
            guard size <= limits.maxEventDataSize else {
                fail(.eventTooLarge, limit: limits.maxEventDataSize, size: size, onOutput)
                return
            }
            decodedDataSize = size
        }
        if data.isSet {
            data.append(value, after: Self.lf)
        } else {
            data.set(value, inChunk: inChunk)
        }
    }

    /// A blank line: dispatch the block (or end the resync after a failure).
    private mutating func endBlock(_ onOutput: (BorrowedOutput) -> Void) {
        if discardingEvent {
            discardingEvent = false
            resetEvent()
            return
        }
        if id.isSet {
            lastID.replace(with: id.bytes)
        }
        guard data.isSet else {
            resetEvent()
            return
        }
        let view = SSEEventView(
            id: id.isSet ? id.bytes : nil, type: type.count > 0 ? type.bytes : SSEEventView.defaultType,
            data: data.bytes, retry: retry)
        onOutput(.event(view))
        resetEvent()
    }

    /// The size of `bytes` once decoded as UTF-8 with replacement characters.
    private static func decodedSize(_ bytes: some Collection<UInt8>) -> Int {
        bytes.allSatisfy { $0 < 0x80 } ? bytes.count : String(decoding: bytes, as: UTF8.self).utf8.count
    }

    private static func equals(_ bytes: UnsafeRawBufferPointer, _ literal: StaticString) -> Bool {
        bytes.count == literal.utf8CodeUnitCount && memcmp(bytes.baseAddress!, literal.utf8Start, bytes.count) == 0
    }

    /// The value as a non-negative integer when it is one or more ASCII digits and fits an `Int`.
    private static func digits(_ bytes: UnsafeRawBufferPointer) -> Int? {
        guard !bytes.isEmpty else { return nil }
        var result = 0
        for byte in bytes {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            let (times, overflow1) = result.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times.addingReportingOverflow(Int(byte - UInt8(ascii: "0")))
            guard !overflow1, !overflow2 else { return nil }
            result = sum
        }
        return result
    }
}
