/// The CRC-32 of ISO 3309 (gzip's, zlib's, PNG's): reflected polynomial `0xEDB88320`.
///
/// Eight bytes at a time ("slicing-by-8"): table `k` holds each byte's checksum followed by `k` zero bytes, so one
/// step folds a 64-bit load into the checksum with eight lookups. `rk-install` checksums every tool it installs:
/// byte by byte, a debug build's tools (about 100 MB) took two seconds.
package struct CRC32: Sendable {
    /// Eight tables of 256 entries, one after the other.
    private static let tables: [UInt32] = {
        var tables = [UInt32](repeating: 0, count: 8 * 256)
        for index in 0..<256 {
            var value = UInt32(index)
            for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
            tables[index] = value
        }
        for slice in 1..<8 {
            for index in 0..<256 {
                let previous = tables[(slice - 1) * 256 + index]
                tables[slice * 256 + index] = tables[Int(previous & 0xFF)] ^ (previous >> 8)
            }
        }
        return tables
    }()

    /// The checksum of the bytes given so far.
    package private(set) var value: UInt32 = 0

    /// A checksum of nothing yet.
    package init() {}

    /// Adds `bytes`.
    package mutating func update(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let start = bytes.baseAddress else { return }
        var crc = ~value
        Self.tables.withUnsafeBufferPointer { tables in
            let table = tables.baseAddress!
            let raw = UnsafeRawPointer(start)
            var offset = 0
            while bytes.count - offset >= 8 {
                let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
                let low = UInt32(truncatingIfNeeded: word) ^ crc
                let high = UInt32(truncatingIfNeeded: word >> 32)
                let fromLow =
                    table[7 * 256 + Int(low & 0xFF)] ^ table[6 * 256 + Int((low >> 8) & 0xFF)]
                    ^ table[5 * 256 + Int((low >> 16) & 0xFF)] ^ table[4 * 256 + Int(low >> 24)]
                let fromHigh =
                    table[3 * 256 + Int(high & 0xFF)] ^ table[2 * 256 + Int((high >> 8) & 0xFF)]
                    ^ table[256 + Int((high >> 16) & 0xFF)] ^ table[Int(high >> 24)]
                crc = fromLow ^ fromHigh
                offset += 8
            }
            while offset < bytes.count {
                crc = table[Int((crc ^ UInt32(start[offset])) & 0xFF)] ^ (crc >> 8)
                offset += 1
            }
        }
        value = ~crc
    }

    /// The checksum of `bytes`.
    package static func checksum(_ bytes: [UInt8]) -> UInt32 {
        var crc = CRC32()
        bytes.withUnsafeBufferPointer { crc.update($0) }
        return crc.value
    }
}
