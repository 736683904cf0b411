/// DEFLATE (RFC 1951) compression in one block of fixed Huffman codes, with LZ77 matches found through a hash of
/// each position's next three bytes. Fixed codes need no code tables in the output, which suits the short,
/// repetitive bodies it is used for (OTLP exports: the same keys and names in every span): a batch of spans shrinks
/// to a fifth or less.
package enum Deflate {
    static let minMatch = 3
    static let maxMatch = 258
    static let window = 32_768
    /// Candidates looked at per position, at most: more finds slightly longer matches, slower.
    static let maxChain = 32

    static let lengthBases: [Int] = [
        3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227,
        258,
    ]
    static let lengthExtraBits: [Int] = [
        0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0,
    ]
    static let distanceBases: [Int] = [
        1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097,
        6145, 8193, 12289, 16385, 24577,
    ]
    static let distanceExtraBits: [Int] = [
        0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13,
    ]

    /// The raw DEFLATE stream of `input` (no zlib or gzip framing).
    package static func compress(_ input: [UInt8]) -> [UInt8] {
        var output = BitWriter(capacity: input.count / 3 + 64)
        output.write(1, bits: 1)  // BFINAL: the only block
        output.write(1, bits: 2)  // BTYPE 01: fixed Huffman codes
        input.withUnsafeBufferPointer { bytes in
            var matcher = Matcher()
            var position = 0
            while position < bytes.count {
                let (length, distance) = matcher.longestMatch(at: position, in: bytes)
                if length >= minMatch {
                    writeMatch(length: length, distance: distance, to: &output)
                    for next in position..<(position + length) { matcher.insert(next, in: bytes) }
                    position += length
                } else {
                    matcher.insert(position, in: bytes)
                    writeLiteral(Int(bytes[position]), to: &output)
                    position += 1
                }
            }
        }
        writeLiteral(256, to: &output)  // end of block
        return output.finish()
    }

    /// The positions seen so far, chained by the hash of their next three bytes.
    private struct Matcher {
        static let hashBits = 15
        var heads: [Int32]
        var previous: [Int32]

        init() {
            heads = Array(repeating: -1, count: 1 << Self.hashBits)
            previous = Array(repeating: -1, count: window)
        }

        static func hash(_ bytes: UnsafeBufferPointer<UInt8>, _ position: Int) -> Int {
            let value = UInt32(bytes[position]) << 16 | UInt32(bytes[position + 1]) << 8 | UInt32(bytes[position + 2])
            return Int((value &* 2_654_435_761) >> (32 - UInt32(hashBits)))
        }

        mutating func insert(_ position: Int, in bytes: UnsafeBufferPointer<UInt8>) {
            guard position + minMatch <= bytes.count else { return }
            let hash = Self.hash(bytes, position)
            previous[position & (window - 1)] = heads[hash]
            heads[hash] = Int32(position)
        }

        /// The longest earlier match of the bytes at `position` within the window: its length (0 when none of at
        /// least three bytes) and distance.
        func longestMatch(at position: Int, in bytes: UnsafeBufferPointer<UInt8>) -> (length: Int, distance: Int) {
            guard position + minMatch <= bytes.count else { return (0, 0) }
            let limit = min(maxMatch, bytes.count - position)
            var best = (length: 0, distance: 0)
            var candidate = Int(heads[Self.hash(bytes, position)])
            var looked = 0
            while candidate >= 0, candidate < position, position - candidate <= window, looked < maxChain {
                if bytes[candidate + best.length] == bytes[position + best.length] {
                    var length = 0
                    while length < limit, bytes[candidate + length] == bytes[position + length] { length += 1 }
                    if length > best.length {
                        best = (length, position - candidate)
                        if length == limit { break }
                    }
                }
                let next = Int(previous[candidate & (window - 1)])
                guard next < candidate else { break }
                candidate = next
                looked += 1
            }
            return best
        }
    }

    private static func writeLiteral(_ symbol: Int, to output: inout BitWriter) {
        let code = literalCodes[symbol]
        output.write(Int(code.bits), bits: Int(code.length))
    }

    private static func writeMatch(length: Int, distance: Int, to output: inout BitWriter) {
        let lengthIndex = Int(lengthIndexes[length])
        writeLiteral(257 + lengthIndex, to: &output)
        output.write(length - lengthBases[lengthIndex], bits: lengthExtraBits[lengthIndex])
        var distanceIndex = 0
        while distanceIndex + 1 < distanceBases.count, distanceBases[distanceIndex + 1] <= distance {
            distanceIndex += 1
        }
        output.write(distanceCodes[distanceIndex], bits: 5)
        output.write(distance - distanceBases[distanceIndex], bits: distanceExtraBits[distanceIndex])
    }

    /// Each literal/length symbol's fixed code (RFC 1951 §3.2.6), bit-reversed as it goes into the stream.
    private static let literalCodes: [(bits: UInt16, length: UInt8)] = (0..<288).map { symbol in
        let (code, length): (Int, Int)
        switch symbol {
        case 0...143: (code, length) = (0x30 + symbol, 8)
        case 144...255: (code, length) = (0x190 + symbol - 144, 9)
        case 256...279: (code, length) = (symbol - 256, 7)
        default: (code, length) = (0xC0 + symbol - 280, 8)
        }
        return (UInt16(reversed(code, length)), UInt8(length))
    }

    /// The five-bit distance codes, bit-reversed.
    private static let distanceCodes: [Int] = (0..<30).map { reversed($0, 5) }

    /// The length symbol's index for each match length (3…258).
    private static let lengthIndexes: [UInt8] = (0...maxMatch).map { length in
        UInt8(lengthBases.lastIndex { $0 <= length } ?? 0)
    }

    /// Huffman codes go into the stream from their first bit; everything else from its last.
    private static func reversed(_ code: Int, _ length: Int) -> Int {
        var result = 0
        for bit in 0..<length where code & (1 << bit) != 0 { result |= 1 << (length - 1 - bit) }
        return result
    }
}

/// Writes values into bytes from their least significant bit, as DEFLATE packs them.
private struct BitWriter {
    private var bytes: [UInt8] = []
    private var buffer: UInt64 = 0
    private var count = 0

    init(capacity: Int) {
        bytes.reserveCapacity(capacity)
    }

    mutating func write(_ value: Int, bits: Int) {
        guard bits > 0 else { return }
        buffer |= UInt64(value) << UInt64(count)
        count += bits
        while count >= 8 {
            bytes.append(UInt8(truncatingIfNeeded: buffer))
            buffer >>= 8
            count -= 8
        }
    }

    consuming func finish() -> [UInt8] {
        if count > 0 { bytes.append(UInt8(truncatingIfNeeded: buffer)) }
        return bytes
    }
}
