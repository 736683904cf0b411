import ResolveKitCore

/// Writes JSON as OTLP's JSON encoding wants it (the protobuf JSON mapping with hex ids and integer enums), straight
/// into bytes: the export path builds no intermediate tree.
struct OTLPJSONWriter {
    private(set) var bytes: [UInt8] = []
    /// Whether the container being written already has a member (so the next one needs a comma).
    private var hasMember: [Bool] = []
    private var afterKey = false

    init(capacity: Int = 4096) {
        bytes.reserveCapacity(capacity)
    }

    mutating func beginObject() {
        beforeValue()
        bytes.append(UInt8(ascii: "{"))
        hasMember.append(false)
    }

    mutating func endObject() {
        hasMember.removeLast()
        bytes.append(UInt8(ascii: "}"))
    }

    mutating func beginArray() {
        beforeValue()
        bytes.append(UInt8(ascii: "["))
        hasMember.append(false)
    }

    mutating func endArray() {
        hasMember.removeLast()
        bytes.append(UInt8(ascii: "]"))
    }

    /// A member's name; its value comes next. Names are OTLP's field names, literals that need no escaping:
    /// copied as they are, as most of an export's bytes are.
    mutating func key(_ name: StaticString) {
        beforeValue()
        bytes.append(UInt8(ascii: "\""))
        bytes.append(contentsOf: UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
        afterKey = true
    }

    mutating func string(_ value: String) {
        beforeValue()
        writeString(value)
    }

    /// A 64-bit integer, as a JSON string (OTLP's rule for `fixed64`, `int64`, `uint64`).
    mutating func integerString<T: BinaryInteger>(_ value: T) {
        beforeValue()
        bytes.append(UInt8(ascii: "\""))
        if let unsigned = UInt64(exactly: value) {
            ASCIIDigits.appendDecimal(unsigned, to: &bytes)
        } else {
            ASCIIDigits.appendDecimal(Int64(value), to: &bytes)
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// A 32-bit integer or an enum, as a JSON number.
    mutating func number(_ value: Int) {
        beforeValue()
        ASCIIDigits.appendDecimal(Int64(value), to: &bytes)
    }

    /// A trace id (`high`, `low`) or a span id (`high` alone) as a JSON string of lower-case hex digits.
    mutating func hexID(_ high: UInt64, _ low: UInt64? = nil) {
        beforeValue()
        bytes.append(UInt8(ascii: "\""))
        // Ids, timestamps and counts are most of an export's bytes: written in place, with no `String` between.
        ASCIIDigits.appendHex(high, to: &bytes)
        if let low { ASCIIDigits.appendHex(low, to: &bytes) }
        bytes.append(UInt8(ascii: "\""))
    }

    /// A double: a JSON number, or `"NaN"`, `"Infinity"`, `"-Infinity"` as the protobuf JSON mapping writes them.
    mutating func double(_ value: Double) {
        beforeValue()
        if value.isNaN {
            writeString("NaN")
        } else if value.isInfinite {
            writeString(value > 0 ? "Infinity" : "-Infinity")
        } else if value == value.rounded(), abs(value) < 1e15 {
            bytes.append(contentsOf: String(Int64(value)).utf8)
        } else {
            bytes.append(contentsOf: String(value).utf8)
        }
    }

    mutating func bool(_ value: Bool) {
        beforeValue()
        bytes.append(contentsOf: (value ? "true" : "false").utf8)
    }

    private mutating func beforeValue() {
        if afterKey {
            afterKey = false
            return
        }
        guard !hasMember.isEmpty else { return }
        if hasMember[hasMember.count - 1] { bytes.append(UInt8(ascii: ",")) }
        hasMember[hasMember.count - 1] = true
    }

    private mutating func writeString(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        // Most texts (names, keys, ids) need no escape: copied in one go.
        let copied = value.utf8.withContiguousStorageIfAvailable { text -> Bool in
            guard !text.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") })
            else { return false }
            bytes.append(contentsOf: text)
            return true
        }
        if copied == true {
            bytes.append(UInt8(ascii: "\""))
            return
        }
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: [92, 34])
            case UInt8(ascii: "\\"): bytes.append(contentsOf: [92, 92])
            case UInt8(ascii: "\n"): bytes.append(contentsOf: [92, UInt8(ascii: "n")])
            case UInt8(ascii: "\r"): bytes.append(contentsOf: [92, UInt8(ascii: "r")])
            case UInt8(ascii: "\t"): bytes.append(contentsOf: [92, UInt8(ascii: "t")])
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                bytes.append(contentsOf: [92, UInt8(ascii: "u"), 48, 48, hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}

extension OTLPJSONWriter {
    /// `"attributes":[{"key":…,"value":{…}},…]`, left out when there are none.
    mutating func attributes(_ attributes: [SpanAttribute], key name: StaticString = "attributes") {
        guard !attributes.isEmpty else { return }
        key(name)
        beginArray()
        for attribute in attributes {
            beginObject()
            key("key")
            string(attribute.key)
            key("value")
            anyValue(attribute.value)
            endObject()
        }
        endArray()
    }

    /// An `AnyValue`.
    mutating func anyValue(_ value: AttributeValue) {
        beginObject()
        switch value {
        case .string(let text):
            key("stringValue")
            string(text)
        case .bool(let flag):
            key("boolValue")
            bool(flag)
        case .int(let number):
            key("intValue")
            integerString(number)
        case .double(let number):
            key("doubleValue")
            double(number)
        case .strings(let texts):
            arrayValue(texts.map(AttributeValue.string))
        case .ints(let numbers):
            arrayValue(numbers.map(AttributeValue.int))
        }
        endObject()
    }

    private mutating func arrayValue(_ values: [AttributeValue]) {
        key("arrayValue")
        beginObject()
        key("values")
        beginArray()
        for value in values { anyValue(value) }
        endArray()
        endObject()
    }

    /// `"resource":{"attributes":[…]}` and the scope, shared by traces and metrics.
    mutating func resource(_ resource: TelemetryResource) {
        key("resource")
        beginObject()
        attributes(resource.attributes)
        endObject()
    }

    mutating func scope() {
        key("scope")
        beginObject()
        key("name")
        string(TelemetryResource.scopeName)
        key("version")
        string(TelemetryResource.sdkVersion)
        endObject()
    }
}
