/// The gzip format (RFC 1952) around DEFLATE: what OTLP/HTTP's `Content-Encoding: gzip` carries.
package enum Gzip {
    /// `bytes` compressed, in one gzip member with no name and no time.
    package static func compress(_ bytes: [UInt8]) -> [UInt8] {
        // ID1 ID2, CM 8 (deflate), no flags, no modification time, XFL 0, OS 255 (unknown).
        var output: [UInt8] = [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 255]
        output += Deflate.compress(bytes)
        output += littleEndian(CRC32.checksum(bytes))
        output += littleEndian(UInt32(truncatingIfNeeded: bytes.count))
        return output
    }

    /// The bytes of every gzip member in `bytes`, checked against their CRC and length.
    /// - Throws: ``GzipError`` naming what is wrong: not gzip, truncated, malformed, a checksum that does not match,
    ///   or more than `maxOutput` bytes.
    package static func decompress(_ bytes: [UInt8], maxOutput: Int) throws(GzipError) -> [UInt8] {
        var output: [UInt8] = []
        var offset = 0
        try bytes.withUnsafeBufferPointer { (input) throws(GzipError) in
            repeat {
                let start = try headerEnd(input, from: offset)
                let (member, end) = try Inflate.decompress(input, from: start, maxOutput: maxOutput - output.count)
                guard end + 8 <= input.count else { throw GzipError("the gzip trailer is missing") }
                guard readUInt32(input, at: end) == CRC32.checksum(member) else {
                    throw GzipError("the CRC-32 does not match the data")
                }
                guard readUInt32(input, at: end + 4) == UInt32(truncatingIfNeeded: member.count) else {
                    throw GzipError("the length in the trailer does not match the data")
                }
                output += member
                offset = end + 8
            } while offset < input.count
        }
        return output
    }

    /// Where the DEFLATE stream of the member at `offset` starts, past its header's optional fields.
    private static func headerEnd(_ input: UnsafeBufferPointer<UInt8>, from offset: Int) throws(GzipError) -> Int {
        guard offset + 10 <= input.count, input[offset] == 0x1F, input[offset + 1] == 0x8B else {
            throw GzipError("not gzip data (no 1f 8b header)")
        }
        guard input[offset + 2] == 8 else { throw GzipError("compression method \(input[offset + 2]), not deflate") }
        let flags = input[offset + 3]
        var position = offset + 10
        if flags & 0x04 != 0 {  // FEXTRA
            guard position + 2 <= input.count else { throw GzipError("the gzip header ends early") }
            position += 2 + (Int(input[position]) | Int(input[position + 1]) << 8)
        }
        for flag: UInt8 in [0x08, 0x10] where flags & flag != 0 {  // FNAME, FCOMMENT: NUL-terminated
            while position < input.count, input[position] != 0 { position += 1 }
            position += 1
        }
        if flags & 0x02 != 0 { position += 2 }  // FHCRC
        guard position <= input.count else { throw GzipError("the gzip header ends early") }
        return position
    }

    private static func littleEndian(_ value: UInt32) -> [UInt8] {
        (0..<4).map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) }
    }

    private static func readUInt32(_ input: UnsafeBufferPointer<UInt8>, at offset: Int) -> UInt32 {
        (0..<4).reduce(0) { $0 | UInt32(input[offset + $1]) << ($1 * 8) }
    }
}

/// Why gzip or DEFLATE data could not be read.
package struct GzipError: Error, Sendable, CustomStringConvertible {
    /// What is wrong, e.g. `the CRC-32 does not match the data`.
    package let description: String

    init(_ description: String) {
        self.description = description
    }
}
