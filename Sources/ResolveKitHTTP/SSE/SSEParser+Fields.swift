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
        let colon = Self.find(UInt8(ascii: ":"), in: base, from: 0, to: line.count)
        var valueStart = min(colon + 1, line.count)
        if valueStart < line.count, line[valueStart] == UInt8(ascii: " ") { valueStart += 1 }
        let value = UnsafeRawBufferPointer(start: base + valueStart, count: line.count - valueStart)
        if colon == 0 {
            onOutput(.comment(String(decoding: value, as: UTF8.self)))
            return
        }
        let name = UnsafeRawBufferPointer(start: base, count: colon)
        if Self.equals(name, "data") {
            appendData(value, onOutput)
        } else if Self.equals(name, "id") {
            if Self.find(0, in: base + valueStart, from: 0, to: value.count) == value.count {
                let id = String(decoding: value, as: UTF8.self)
                idBuffer = id
                eventID = id
            }
        } else if Self.equals(name, "event") {
            eventType = String(decoding: value, as: UTF8.self)
        } else if Self.equals(name, "retry") {
            if let milliseconds = Self.digits(value) {
                reconnectionTime = milliseconds
                retry = milliseconds
            }
        }
    }

    private mutating func appendData(_ value: UnsafeRawBufferPointer, _ onOutput: (Output) -> Void) {
        let size = data.count + (hasData ? 1 : 0) + value.count
        guard size <= limits.maxEventDataSize else {
            fail(.eventTooLarge, limit: limits.maxEventDataSize, size: size, onOutput)
            return
        }
        if hasData { data.append(Self.lf) }
        data.append(contentsOf: value)
        hasData = true
    }

    /// A blank line: dispatch the block (or end the resync after a failure).
    private mutating func endBlock(_ onOutput: (Output) -> Void) {
        if discardingEvent {
            discardingEvent = false
            resetEvent()
            return
        }
        lastEventID = idBuffer
        guard hasData else {
            resetEvent()
            return
        }
        let type = eventType.flatMap { $0.isEmpty ? nil : $0 } ?? "message"
        let event = SSEEvent(id: eventID, type: type, data: String(decoding: data, as: UTF8.self), retry: retry)
        resetEvent()
        onOutput(.event(event))
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
