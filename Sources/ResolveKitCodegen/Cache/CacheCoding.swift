/// Appends values to the bytes of a cache file: integers as LEB128, strings as their length and UTF-8 bytes.
struct CacheWriter {
    private(set) var bytes: [UInt8] = []

    mutating func write(_ value: Int) {
        var rest = UInt64(bitPattern: Int64(value))
        while rest >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    mutating func write(_ value: UInt64) {
        for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
    }

    mutating func write(_ flag: Bool) { bytes.append(flag ? 1 : 0) }

    mutating func write(_ text: String) {
        write(text.utf8.count)
        bytes.append(contentsOf: text.utf8)
    }

    mutating func write(_ text: String?) {
        write(text != nil)
        if let text { write(text) }
    }

    mutating func write(raw other: some Collection<UInt8>) { bytes.append(contentsOf: other) }

    /// Makes room for `capacity` bytes in all.
    mutating func reserveCapacity(_ capacity: Int) { bytes.reserveCapacity(capacity) }

    mutating func write<Element>(_ elements: [Element], _ each: (inout CacheWriter, Element) -> Void) {
        write(elements.count)
        for element in elements { each(&self, element) }
    }

    mutating func write<Wrapped>(_ value: Wrapped?, _ each: (inout CacheWriter, Wrapped) -> Void) {
        write(value != nil)
        if let value { each(&self, value) }
    }
}

/// Reads what ``CacheWriter`` wrote; every read checks the bounds, so a truncated or corrupt file is an error, never
/// a crash.
struct CacheReader {
    /// The bytes do not hold what the reader expected.
    struct Malformed: Error {}

    let bytes: [UInt8]
    var offset: Int
    let end: Int

    init(_ bytes: [UInt8], from start: Int = 0, to end: Int? = nil) {
        self.bytes = bytes
        self.offset = start
        self.end = end ?? bytes.count
    }

    var isAtEnd: Bool { offset >= end }

    mutating func byte() throws(Malformed) -> UInt8 {
        guard offset < end else { throw Malformed() }
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func int() throws(Malformed) -> Int {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let next = try byte()
            guard shift < 64 else { throw Malformed() }
            value |= UInt64(next & 0x7F) << shift
            if next < 0x80 { break }
            shift += 7
        }
        return Int(Int64(bitPattern: value))
    }

    /// A count of elements that must each take at least one byte, so a corrupt count cannot ask for a huge array.
    mutating func count() throws(Malformed) -> Int {
        let count = try int()
        guard count >= 0, count <= end - offset else { throw Malformed() }
        return count
    }

    mutating func uint64() throws(Malformed) -> UInt64 {
        guard end - offset >= 8 else { throw Malformed() }
        var value: UInt64 = 0
        for index in 0..<8 { value |= UInt64(bytes[offset + index]) << UInt64(index * 8) }
        offset += 8
        return value
    }

    mutating func bool() throws(Malformed) -> Bool {
        switch try byte() {
        case 0: false
        case 1: true
        default: throw Malformed()
        }
    }

    mutating func string() throws(Malformed) -> String {
        let count = try count()
        defer { offset += count }
        return String(decoding: bytes[offset..<(offset + count)], as: UTF8.self)
    }

    /// A length and that many bytes, as a slice of the file's bytes (no copy).
    mutating func byteSlice() throws(Malformed) -> ArraySlice<UInt8> {
        let count = try count()
        defer { offset += count }
        return bytes[offset..<(offset + count)]
    }

    mutating func optionalString() throws(Malformed) -> String? {
        try bool() ? try string() : nil
    }

    mutating func array<Element>(_ each: (inout CacheReader) throws(Malformed) -> Element) throws(Malformed)
        -> [Element]
    {
        let count = try count()
        var elements: [Element] = []
        elements.reserveCapacity(count)
        for _ in 0..<count { elements.append(try each(&self)) }
        return elements
    }

    mutating func optional<Wrapped>(
        _ each: (inout CacheReader) throws(Malformed) -> Wrapped
    ) throws(Malformed) -> Wrapped? {
        try bool() ? try each(&self) : nil
    }
}

/// A part of a file's model read back from the cache: its locations name the file, which the cache stores once.
protocol FileCacheDecodable {
    init(file: String, from reader: inout CacheReader) throws(CacheReader.Malformed)
}

extension CacheReader {
    /// An array of `Element`s of the model of `file`.
    mutating func array<Element: FileCacheDecodable>(
        of _: Element.Type, file: String
    ) throws(Malformed) -> [Element] {
        try array { (reader) throws(Malformed) in try Element(file: file, from: &reader) }
    }

    /// An optional `Wrapped` of the model of `file`.
    mutating func optional<Wrapped: FileCacheDecodable>(
        of _: Wrapped.Type, file: String
    ) throws(Malformed) -> Wrapped? {
        try optional { (reader) throws(Malformed) in try Wrapped(file: file, from: &reader) }
    }
}

extension CacheWriter {
    /// A length and the bytes; read back with ``CacheReader/byteSlice()``.
    mutating func write(bytes: ArraySlice<UInt8>) {
        write(bytes.count)
        write(raw: bytes)
    }
}
