/// Writes protocol buffers' binary encoding straight into bytes, for OTLP's `http/protobuf`: no message objects,
/// fields in the order they are written.
///
/// A nested message's length comes before its body but is known only after it: `beginMessage` leaves one byte for
/// it, and `endMessage` writes it there, moving the body along only when it is 128 bytes or longer (the spans
/// themselves and the few containers around them; their attributes and values fit the byte).
struct OTLPProtobufWriter {
    private(set) var bytes: [UInt8] = []
    /// Where the body of each message still open starts.
    private var openBodies: [Int] = []

    init(capacity: Int = 4096) {
        bytes.reserveCapacity(capacity)
        openBodies.reserveCapacity(8)
    }

    /// Opens the message in `field`; its fields follow until ``endMessage()``.
    mutating func beginMessage(_ field: Int) {
        tag(field, .lengthDelimited)
        bytes.append(0)
        openBodies.append(bytes.count)
    }

    /// Closes the message opened last, writing its length before it.
    mutating func endMessage() {
        let start = openBodies.removeLast()
        let length = bytes.count - start
        guard length >= 0x80 else {
            bytes[start - 1] = UInt8(length)
            return
        }
        var size = 1
        while length >> (7 * size) > 0 { size += 1 }
        bytes.insert(contentsOf: repeatElement(0, count: size - 1), at: start)
        var rest = length
        for index in (start - 1)..<(start - 1 + size) {
            bytes[index] = UInt8(truncatingIfNeeded: rest) | (index < start - 2 + size ? 0x80 : 0)
            rest >>= 7
        }
    }

    /// A `string` field; an empty text is left out, as proto3 leaves out default values.
    mutating func string(_ field: Int, _ value: String) {
        guard !value.isEmpty else { return }
        stringAlways(field, value)
    }

    /// A `string` field even when empty: a `oneof` member, whose presence is what it says.
    mutating func stringAlways(_ field: Int, _ value: String) {
        tag(field, .lengthDelimited)
        var text = value
        text.withUTF8 { utf8 in
            Self.appendVarint(UInt64(utf8.count), to: &bytes)
            bytes.append(contentsOf: utf8)
        }
    }

    /// A `bytes` field of an id: `high` (and `low`) as big-endian bytes, the order of the id's hex digits.
    mutating func id(_ field: Int, _ high: UInt64, _ low: UInt64? = nil) {
        tag(field, .lengthDelimited)
        bytes.append(low == nil ? 8 : 16)
        Self.appendBigEndian(high, to: &bytes)
        if let low { Self.appendBigEndian(low, to: &bytes) }
    }

    /// A `uint32`, `uint64` or enum field; zero is left out.
    mutating func varint(_ field: Int, _ value: UInt64) {
        guard value != 0 else { return }
        tag(field, .varint)
        Self.appendVarint(value, to: &bytes)
    }

    /// An `int64` field of a `oneof` (two's complement, ten bytes when negative), written even when zero.
    mutating func int64Always(_ field: Int, _ value: Int64) {
        tag(field, .varint)
        Self.appendVarint(UInt64(bitPattern: value), to: &bytes)
    }

    /// A `bool` field of a `oneof`, written even when false.
    mutating func boolAlways(_ field: Int, _ value: Bool) {
        tag(field, .varint)
        bytes.append(value ? 1 : 0)
    }

    /// A `fixed64` field (OTLP's timestamps and counts); zero is left out.
    mutating func fixed64(_ field: Int, _ value: UInt64) {
        guard value != 0 else { return }
        tag(field, .fixed64)
        Self.appendLittleEndian(value, to: &bytes)
    }

    /// A `fixed32` field; zero is left out.
    mutating func fixed32(_ field: Int, _ value: UInt32) {
        guard value != 0 else { return }
        tag(field, .fixed32)
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    /// A `double` field, written even when zero (OTLP's are `oneof` members or optional).
    mutating func doubleAlways(_ field: Int, _ value: Double) {
        tag(field, .fixed64)
        Self.appendLittleEndian(value.bitPattern, to: &bytes)
    }

    /// A packed `repeated fixed64` field; left out when empty.
    mutating func packedFixed64(_ field: Int, _ values: [UInt64]) {
        guard !values.isEmpty else { return }
        tag(field, .lengthDelimited)
        Self.appendVarint(UInt64(values.count * 8), to: &bytes)
        for value in values { Self.appendLittleEndian(value, to: &bytes) }
    }

    /// A packed `repeated double` field; left out when empty.
    mutating func packedDouble(_ field: Int, _ values: [Double]) {
        packedFixed64(field, values.map(\.bitPattern))
    }

    private enum WireType: UInt64 {
        case varint = 0
        case fixed64 = 1
        case lengthDelimited = 2
        case fixed32 = 5
    }

    private mutating func tag(_ field: Int, _ type: WireType) {
        Self.appendVarint(UInt64(field) << 3 | type.rawValue, to: &bytes)
    }

    static func appendVarint(_ value: UInt64, to bytes: inout [UInt8]) {
        var rest = value
        while rest >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    private static func appendLittleEndian(_ value: UInt64, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    private static func appendBigEndian(_ value: UInt64, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.bigEndian) { bytes.append(contentsOf: $0) }
    }
}

extension OTLPProtobufWriter {
    /// Repeated `KeyValue`s in `field`.
    mutating func attributes(_ field: Int, _ attributes: [SpanAttribute]) {
        for attribute in attributes {
            beginMessage(field)
            string(1, attribute.key)
            beginMessage(2)
            anyValue(attribute.value)
            endMessage()
            endMessage()
        }
    }

    /// The fields of an `AnyValue`.
    mutating func anyValue(_ value: AttributeValue) {
        switch value {
        case .string(let text): stringAlways(1, text)
        case .bool(let flag): boolAlways(2, flag)
        case .int(let number): int64Always(3, number)
        case .double(let number): doubleAlways(4, number)
        case .strings(let texts): arrayValue(texts.map(AttributeValue.string))
        case .ints(let numbers): arrayValue(numbers.map(AttributeValue.int))
        }
    }

    private mutating func arrayValue(_ values: [AttributeValue]) {
        beginMessage(5)
        for value in values {
            beginMessage(1)
            anyValue(value)
            endMessage()
        }
        endMessage()
    }

    /// The `Resource` in field 1, as traces and metrics both begin.
    mutating func resource(_ resource: TelemetryResource) {
        beginMessage(1)
        attributes(1, resource.attributes)
        endMessage()
    }

    /// The `InstrumentationScope` in field 1.
    mutating func scope() {
        beginMessage(1)
        string(1, TelemetryResource.scopeName)
        string(2, TelemetryResource.sdkVersion)
        endMessage()
    }
}
