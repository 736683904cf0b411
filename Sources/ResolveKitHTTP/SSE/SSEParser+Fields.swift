import Glibc

extension SSEParser {
    /// Interprets one complete line (without its line end).
    mutating func processLine(_ whole: UnsafeRawBufferPointer, _ onOutput: (Output) -> Void) {
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
            onOutput(.comment(String(decoding: value, as: UTF8.self)))
        case .data:
            appendData(value, onOutput)
        case .id:
            if Self.find(0, in: base + valueStart, from: 0, to: value.count) == value.count {
                eventID = String(decoding: value, as: UTF8.self)
            }
        case .event:
            eventType = recentTypes.type(for: value)
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

    private mutating func appendData(_ value: UnsafeRawBufferPointer, _ onOutput: (Output) -> Void) {
        // The limit counts decoded UTF-8: an invalid byte becomes U+FFFD (3 bytes), so the raw size is not enough.
        let line = String(decoding: value, as: UTF8.self)
        let size = (hasData ? data.utf8.count + 1 : 0) + line.utf8.count
        guard size <= limits.maxEventDataSize else {
            fail(.eventTooLarge, limit: limits.maxEventDataSize, size: size, onOutput)
            return
        }
        if hasData {
            data.append("\n")
            data.append(line)
        } else {
            data = line
        }
        hasData = true
    }

    /// A blank line: dispatch the block (or end the resync after a failure).
    private mutating func endBlock(_ onOutput: (Output) -> Void) {
        if discardingEvent {
            discardingEvent = false
            resetEvent()
            return
        }
        let id = eventID
        if let id {
            lastEventID = id
            eventID = nil
        }
        guard hasData else {
            resetEvent()
            return
        }
        var data = ""
        swap(&data, &self.data)
        let type = eventType.map { $0.isEmpty ? "message" : $0 } ?? "message"
        eventType = nil
        let retry = self.retry
        self.retry = nil
        hasData = false
        onOutput(.event(SSEEvent(id: id, type: type, data: data, retry: retry)))
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
