/// The fields of one protocol buffers message in its binary encoding, read without a schema: enough to read OTLP's
/// `http/protobuf` answers (a partial success, an error's message) and, in tests, its exports, with field numbers
/// from OpenTelemetry's `.proto` files.
package struct ProtobufMessage {
    /// One field's value, as its wire type carries it.
    package enum Value {
        case varint(UInt64)
        case fixed64(UInt64)
        case fixed32(UInt32)
        case bytes(ArraySlice<UInt8>)
    }

    package private(set) var fields: [(number: Int, value: Value)] = []

    /// Reads `bytes`; `nil` when they are not a well-formed message (a truncated field, an unknown wire type).
    package init?(_ bytes: ArraySlice<UInt8>) {
        var index = bytes.startIndex
        func varint() -> UInt64? {
            var value: UInt64 = 0
            var shift: UInt64 = 0
            while index < bytes.endIndex, shift < 64 {
                let byte = bytes[index]
                index += 1
                value |= UInt64(byte & 0x7F) << shift
                if byte < 0x80 { return value }
                shift += 7
            }
            return nil
        }
        func take(_ count: Int) -> ArraySlice<UInt8>? {
            guard count >= 0, bytes.endIndex - index >= count else { return nil }
            defer { index += count }
            return bytes[index..<(index + count)]
        }
        func littleEndian(_ slice: ArraySlice<UInt8>) -> UInt64 {
            slice.reversed().reduce(0) { $0 << 8 | UInt64($1) }
        }
        while index < bytes.endIndex {
            guard let tag = varint(), tag >> 3 > 0 else { return nil }
            let number = Int(tag >> 3)
            switch tag & 7 {
            case 0:
                guard let value = varint() else { return nil }
                fields.append((number, .varint(value)))
            case 1:
                guard let slice = take(8) else { return nil }
                fields.append((number, .fixed64(littleEndian(slice))))
            case 2:
                guard let length = varint(), length <= UInt64(Int.max), let slice = take(Int(length)) else {
                    return nil
                }
                fields.append((number, .bytes(slice)))
            case 5:
                guard let slice = take(4) else { return nil }
                fields.append((number, .fixed32(UInt32(littleEndian(slice)))))
            default:
                return nil
            }
        }
    }

    /// Every value of field `number`, in order.
    package func values(_ number: Int) -> [Value] {
        fields.filter { $0.number == number }.map(\.value)
    }

    /// The messages in field `number` (a repeated or single message field); malformed ones are left out.
    package func messages(_ number: Int) -> [ProtobufMessage] {
        values(number).compactMap {
            guard case .bytes(let slice) = $0 else { return nil }
            return ProtobufMessage(slice)
        }
    }

    /// The message in field `number`, the last one when it repeats (as protobuf merges them).
    package func message(_ number: Int) -> ProtobufMessage? { messages(number).last }

    /// The bytes in field `number`.
    package func bytes(_ number: Int) -> ArraySlice<UInt8>? {
        guard case .bytes(let slice)? = values(number).last else { return nil }
        return slice
    }

    /// The text in field `number`.
    package func string(_ number: Int) -> String? {
        bytes(number).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The number in field `number`, whatever its wire type; `nil` when absent.
    package func integer(_ number: Int) -> UInt64? {
        switch values(number).last {
        case .varint(let value)?, .fixed64(let value)?: value
        case .fixed32(let value)?: UInt64(value)
        case .bytes?, nil: nil
        }
    }
}
