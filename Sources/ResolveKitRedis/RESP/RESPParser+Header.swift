extension RESPParser {
    /// Handles one line (without its LF): a scalar completes a value, a length starts a bulk or an aggregate.
    mutating func header(_ line: UnsafeRawBufferPointer, _ onValue: (RESPValue) -> Void) throws(RESPParseError) {
        // The same bound as a line still arriving (one byte more may be its CR), so chunking cannot change the error.
        guard line.count <= limits.maxLineLength + 1 else {
            throw RESPParseError(
                code: .lineTooLong, message: "a line is longer than \(limits.maxLineLength) bytes", offset: itemStart)
        }
        guard let last = line.last, last == 13 else { throw malformed("a line is not ended by CRLF") }
        guard line.count >= 2 else { throw malformed("an empty line") }
        let payload = UnsafeRawBufferPointer(rebasing: line[1..<line.count - 1])
        switch line[0] {
        case UInt8(ascii: "+"): try complete(.simpleString(String(decoding: payload, as: UTF8.self)), onValue)
        case UInt8(ascii: "-"): try complete(.simpleError(String(decoding: payload, as: UTF8.self)), onValue)
        case UInt8(ascii: ":"): try complete(.integer(try integer(payload)), onValue)
        case UInt8(ascii: "$"): try startBulk(.string, payload, onValue)
        case UInt8(ascii: "!"): try startBulk(.error, payload, onValue)
        case UInt8(ascii: "="): try startBulk(.verbatim, payload, onValue)
        case UInt8(ascii: "*"): try startAggregate(.array, payload, onValue)
        case UInt8(ascii: "~"): try startAggregate(.set, payload, onValue)
        case UInt8(ascii: ">"): try startAggregate(.push, payload, onValue)
        case UInt8(ascii: "%"): try startAggregate(.map, payload, onValue)
        case UInt8(ascii: "|"): try startAggregate(.attribute, payload, onValue)
        case UInt8(ascii: "_"):
            guard payload.isEmpty else { throw malformed("a null has text after it") }
            try complete(.null, onValue)
        case UInt8(ascii: "#"):
            guard payload.count == 1, payload[0] == UInt8(ascii: "t") || payload[0] == UInt8(ascii: "f") else {
                throw malformed("a boolean is neither t nor f")
            }
            try complete(.boolean(payload[0] == UInt8(ascii: "t")), onValue)
        case UInt8(ascii: ","):
            guard let value = Double(String(decoding: payload, as: UTF8.self)) else {
                throw malformed("a double does not parse")
            }
            try complete(.double(value), onValue)
        case UInt8(ascii: "("):
            let digits =
                payload.first == UInt8(ascii: "-") || payload.first == UInt8(ascii: "+")
                ? UnsafeRawBufferPointer(rebasing: payload.dropFirst()) : payload
            guard !digits.isEmpty, digits.allSatisfy({ $0 >= 48 && $0 <= 57 }) else {
                throw malformed("a big number is not a decimal integer")
            }
            try complete(.bigNumber(String(decoding: payload, as: UTF8.self)), onValue)
        default:
            throw RESPParseError(
                code: .unknownType, message: "byte \(line[0]) does not start a RESP element", offset: itemStart)
        }
    }

    /// Completes a value at the current level, closing every aggregate it fills; a finished top-level value goes
    /// to `onValue`.
    mutating func complete(_ scalar: RESPValue, _ onValue: (RESPValue) -> Void) throws(RESPParseError) {
        var value = scalar
        if let attributes = pendingAttributes {
            pendingAttributes = nil
            value = .attributed(attributes: attributes, value: value)
        }
        while true {
            guard var frame = stack.popLast() else {
                onValue(value)
                return
            }
            frame.values.append(value)
            frame.expected -= 1
            if frame.expected > 0 {
                stack.append(frame)
                return
            }
            guard let closed = closing(frame) else { return }
            value = closed
        }
    }

    /// The value of a full aggregate, or `nil` for an attribute, which waits for the value it belongs to.
    private mutating func closing(_ frame: Frame) -> RESPValue? {
        let value: RESPValue
        switch frame.kind {
        case .array: value = .array(frame.values)
        case .set: value = .set(frame.values)
        case .push: value = .push(frame.values)
        case .map: value = .map(Self.pairs(frame.values))
        case .attribute:
            pendingAttributes = (frame.attributes ?? []) + Self.pairs(frame.values)
            return nil
        }
        guard let attributes = frame.attributes else { return value }
        return .attributed(attributes: attributes, value: value)
    }

    private static func pairs(_ values: [RESPValue]) -> [RESPPair] {
        stride(from: 0, to: values.count - 1, by: 2).map { RESPPair(values[$0], values[$0 + 1]) }
    }

    private mutating func startBulk(
        _ kind: BulkKind, _ payload: UnsafeRawBufferPointer, _ onValue: (RESPValue) -> Void
    ) throws(RESPParseError) {
        let length = try self.length(payload)
        if length == -1 {
            guard kind == .string else { throw malformed("only a bulk string may have length -1") }
            try complete(.null, onValue)
            return
        }
        guard length <= limits.maxBulkLength else {
            throw RESPParseError(
                code: .bulkTooLong,
                message: "a bulk value announces \(length) bytes, more than the limit of \(limits.maxBulkLength)",
                offset: itemStart)
        }
        if kind == .verbatim, length < 4 { throw malformed("a verbatim string is shorter than its format") }
        bulk.removeAll(keepingCapacity: true)
        bulk.reserveCapacity(min(length, 64 << 10))
        reading = length == 0 ? .bulkEnd(kind, seenCR: false) : .bulk(kind, remaining: length)
    }

    private mutating func startAggregate(
        _ kind: AggregateKind, _ payload: UnsafeRawBufferPointer, _ onValue: (RESPValue) -> Void
    ) throws(RESPParseError) {
        let count = try length(payload)
        if count == -1 {
            guard kind == .array else { throw malformed("only an array may have count -1") }
            try complete(.null, onValue)
            return
        }
        guard count <= limits.maxAggregateCount else {
            throw RESPParseError(
                code: .aggregateTooLarge,
                message: "an aggregate announces \(count) elements, more than the limit of \(limits.maxAggregateCount)",
                offset: itemStart)
        }
        guard stack.count < limits.maxDepth else {
            throw RESPParseError(
                code: .tooDeep, message: "aggregates nest deeper than \(limits.maxDepth) levels", offset: itemStart)
        }
        let attributes = pendingAttributes
        pendingAttributes = nil
        let expected = kind == .map || kind == .attribute ? count * 2 : count
        var frame = Frame(kind: kind, expected: expected, values: [], attributes: attributes)
        guard expected > 0 else {
            if let value = closing(frame) { try complete(value, onValue) }
            return
        }
        frame.values.reserveCapacity(min(expected, 16))
        stack.append(frame)
    }

    /// A length or count: a decimal number from -1 up.
    private func length(_ payload: UnsafeRawBufferPointer) throws(RESPParseError) -> Int {
        if payload.count == 1, payload[0] == UInt8(ascii: "?") {
            throw RESPParseError(
                code: .unsupported, message: "streamed strings and aggregates are not supported", offset: itemStart)
        }
        let value = try integer(payload)
        guard value >= -1 else { throw malformed("a length is below -1") }
        return Int(value)
    }

    /// A signed decimal 64-bit integer, digits only.
    func integer(_ payload: UnsafeRawBufferPointer) throws(RESPParseError) -> Int64 {
        var index = 0
        var negative = false
        if let sign = payload.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") {
            negative = sign == UInt8(ascii: "-")
            index = 1
        }
        guard index < payload.count else { throw malformed("a number has no digits") }
        var value: Int64 = 0
        while index < payload.count {
            let digit = payload[index]
            guard digit >= 48, digit <= 57 else { throw malformed("a number has a byte that is not a digit") }
            let (shifted, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (next, overflow2) =
                negative
                ? shifted.subtractingReportingOverflow(Int64(digit - 48))
                : shifted.addingReportingOverflow(Int64(digit - 48))
            guard !overflow1, !overflow2 else { throw malformed("a number does not fit in 64 bits") }
            value = next
            index += 1
        }
        return value
    }

    private func malformed(_ message: String) -> RESPParseError {
        RESPParseError(code: .malformed, message: message, offset: itemStart)
    }
}
