/// One DEFLATE block being gathered: its literals and matches, how often each symbol occurs, and the bytes it
/// covers; written with whichever of dynamic codes, fixed codes or stored bytes takes the fewest bits.
struct DeflateBlock {
    /// Symbols per block: enough for its codes to pay for their description, few enough to follow the data.
    static let capacity = 16_384
    static let literalSymbols = 286
    static let distanceSymbols = 30

    /// A literal byte (below 256), or a match: `1 << 31 | (length - 3) << 16 | distance`.
    private var tokens: [UInt32] = []
    private var literalCounts = [Int](repeating: 0, count: literalSymbols)
    private var distanceCounts = [Int](repeating: 0, count: distanceSymbols)
    /// Where the bytes it covers start in the input.
    let start: Int

    init(start: Int) {
        self.start = start
        tokens.reserveCapacity(Self.capacity)
    }

    var isFull: Bool { tokens.count >= Self.capacity }

    mutating func literal(_ byte: UInt8) {
        tokens.append(UInt32(byte))
        literalCounts[Int(byte)] += 1
    }

    mutating func match(_ match: Deflate.Match) {
        tokens.append(1 << 31 | UInt32(match.length - Deflate.minMatch) << 16 | UInt32(match.distance))
        literalCounts[257 + Self.lengthIndexes[match.length]] += 1
        distanceCounts[Self.distanceIndex(match.distance)] += 1
    }

    /// Writes the block, which covers the input's bytes from ``start`` to `end`.
    consuming func write(to output: inout BitWriter, bytes: UnsafeBufferPointer<UInt8>, end: Int, isFinal: Bool) {
        literalCounts[256] = 1  // the end of the block
        let dynamic = DynamicCodes(literalCounts: literalCounts, distanceCounts: distanceCounts)
        let extraBits = self.extraBits
        let dynamicBits =
            dynamic.headerBits + dynamic.literals.bits(for: literalCounts)
            + dynamic.distances.bits(for: distanceCounts) + extraBits
        let fixedBits =
            FixedCodes.literals.bits(for: literalCounts) + FixedCodes.distances.bits(for: distanceCounts) + extraBits
        let storedBits = ((end - start) / 65_535 + 1) * 40 + (end - start) * 8
        if storedBits < min(dynamicBits, fixedBits) + 3 {
            writeStored(bytes[start..<end], to: &output, isFinal: isFinal)
            return
        }
        output.write(isFinal ? 1 : 0, bits: 1)
        if dynamicBits < fixedBits {
            output.write(2, bits: 2)
            dynamic.writeHeader(to: &output)
            writeTokens(dynamic.literals, dynamic.distances, to: &output)
        } else {
            output.write(1, bits: 2)
            writeTokens(FixedCodes.literals, FixedCodes.distances, to: &output)
        }
    }

    /// The bits every coding spends beyond the symbols' codes: the lengths' and distances' extra bits.
    private var extraBits: Int {
        var bits = 0
        for (index, count) in literalCounts[257...].enumerated() { bits += count * Deflate.lengthExtraBits[index] }
        for (index, count) in distanceCounts.enumerated() { bits += count * Deflate.distanceExtraBits[index] }
        return bits
    }

    private func writeTokens(_ literals: HuffmanCode, _ distances: HuffmanCode, to output: inout BitWriter) {
        for token in tokens {
            guard token & 1 << 31 != 0 else {
                literals.write(Int(token), to: &output)
                continue
            }
            let length = Int(token >> 16 & 0xFF) + Deflate.minMatch
            let distance = Int(token & 0xFFFF)
            let lengthIndex = Self.lengthIndexes[length]
            literals.write(257 + lengthIndex, to: &output)
            output.write(length - Deflate.lengthBases[lengthIndex], bits: Deflate.lengthExtraBits[lengthIndex])
            let distanceIndex = Self.distanceIndex(distance)
            distances.write(distanceIndex, to: &output)
            output.write(
                distance - Deflate.distanceBases[distanceIndex], bits: Deflate.distanceExtraBits[distanceIndex])
        }
        literals.write(256, to: &output)
    }

    /// Stored blocks of at most 65,535 bytes each; only the last is final, and only if this block is.
    private func writeStored(
        _ raw: Slice<UnsafeBufferPointer<UInt8>>, to output: inout BitWriter, isFinal: Bool
    ) {
        var offset = raw.startIndex
        repeat {
            let length = min(65_535, raw.endIndex - offset)
            output.write(isFinal && offset + length == raw.endIndex ? 1 : 0, bits: 1)
            output.write(0, bits: 2)
            output.alignToByte()
            output.write(length, bits: 16)
            output.write(~length & 0xFFFF, bits: 16)
            output.append(raw[offset..<(offset + length)])
            offset += length
        } while offset < raw.endIndex
    }

    /// The length symbol's index (0…28) for each match length (3…258).
    private static let lengthIndexes: [Int] = (0...Deflate.maxMatch).map { length in
        Deflate.lengthBases.lastIndex { $0 <= length } ?? 0
    }

    /// The distance symbol (0…29) of a distance (1…32,768): two symbols per power of two past 4, told apart by the
    /// bit below the highest of `distance - 1`.
    static func distanceIndex(_ distance: Int) -> Int {
        let value = distance - 1
        guard value >= 2 else { return value }
        let highest = Int.bitWidth - 1 - value.leadingZeroBitCount
        return 2 * highest + (value >> (highest - 1) & 1)
    }
}
