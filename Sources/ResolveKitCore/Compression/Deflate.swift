/// DEFLATE (RFC 1951) compression: LZ77 matches found through a hash of each position's next three bytes, taken
/// lazily as zlib does (a match is kept only when the next position's is not longer), and written in blocks of
/// about 16,000 symbols, each with the codes that suit it: Huffman codes built from its own symbol counts, the fixed
/// codes when those are shorter (small blocks), or the bytes stored as they are (data that does not compress).
package enum Deflate {
    static let minMatch = 3
    static let maxMatch = 258
    static let window = 32_768
    /// Candidates looked at per position, at most: more finds slightly longer matches, slower.
    static let maxChain = 32
    /// A match this long is taken at once, without looking whether the next position has a longer one.
    static let lazyLimit = 16
    /// A three-byte match farther than this costs more bits than its three bytes as literals.
    static let farthestShortMatch = 4096

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

    /// The order in which a dynamic block's header gives the lengths of the code-length code's symbols.
    static let codeLengthOrder = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]

    /// The raw DEFLATE stream of `input` (no zlib or gzip framing).
    package static func compress(_ input: [UInt8]) -> [UInt8] {
        var output = BitWriter(capacity: input.count / 4 + 64)
        input.withUnsafeBufferPointer { bytes in
            var block = DeflateBlock(start: 0)
            var matcher = Matcher()
            // A match found at `position - 1`, kept back to see whether the match at `position` is longer.
            var pending: Match?
            var position = 0
            while position < bytes.count {
                let current = matcher.longestMatch(at: position, in: bytes)
                matcher.insert(position, in: bytes)
                if let previous = pending {
                    if current.length > previous.length {
                        block.literal(bytes[position - 1])
                        pending = current
                        position += 1
                    } else {
                        block.match(previous)
                        let end = position - 1 + previous.length
                        for next in (position + 1)..<end { matcher.insert(next, in: bytes) }
                        pending = nil
                        position = end
                    }
                } else if current.length >= lazyLimit {
                    block.match(current)
                    for next in (position + 1)..<(position + current.length) { matcher.insert(next, in: bytes) }
                    position += current.length
                } else if current.length >= minMatch {
                    pending = current
                    position += 1
                } else {
                    block.literal(bytes[position])
                    position += 1
                }
                if pending == nil, block.isFull {
                    block.write(to: &output, bytes: bytes, end: position, isFinal: false)
                    block = DeflateBlock(start: position)
                }
            }
            if let pending { block.match(pending) }
            block.write(to: &output, bytes: bytes, end: bytes.count, isFinal: true)
        }
        return output.finish()
    }

    /// An earlier copy of the bytes at a position: how many bytes, and how far back.
    struct Match {
        var length: Int
        var distance: Int
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

        /// The longest earlier match of the bytes at `position` within the window (length 0 when there is none
        /// worth its bits: shorter than three bytes, or three bytes far back).
        func longestMatch(at position: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Match {
            guard position + minMatch <= bytes.count else { return Match(length: 0, distance: 0) }
            let limit = min(maxMatch, bytes.count - position)
            var best = Match(length: 0, distance: 0)
            var candidate = Int(heads[Self.hash(bytes, position)])
            var looked = 0
            while candidate >= 0, candidate < position, position - candidate <= window, looked < maxChain {
                if bytes[candidate + best.length] == bytes[position + best.length] {
                    var length = 0
                    while length < limit, bytes[candidate + length] == bytes[position + length] { length += 1 }
                    if length > best.length {
                        best = Match(length: length, distance: position - candidate)
                        if length == limit { break }
                    }
                }
                let next = Int(previous[candidate & (window - 1)])
                guard next < candidate else { break }
                candidate = next
                looked += 1
            }
            if best.length == minMatch, best.distance > farthestShortMatch { return Match(length: 0, distance: 0) }
            return best
        }
    }
}

/// Writes values into bytes from their least significant bit, as DEFLATE packs them.
struct BitWriter {
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

    /// Pads with zero bits to the next byte.
    mutating func alignToByte() {
        if count > 0 { write(0, bits: 8 - count) }
    }

    /// Appends `raw` as it is, at a byte boundary (``alignToByte()`` first).
    mutating func append(_ raw: Slice<UnsafeBufferPointer<UInt8>>) {
        precondition(count == 0, "raw bytes go at a byte boundary")
        bytes.append(contentsOf: raw)
    }

    consuming func finish() -> [UInt8] {
        if count > 0 { bytes.append(UInt8(truncatingIfNeeded: buffer)) }
        return bytes
    }
}
