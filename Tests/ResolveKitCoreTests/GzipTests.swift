import Testing

@testable import ResolveKitCore

@Suite struct GzipTests {
    /// Bytes like an OTLP export's: the same keys and names over and over, with ids and numbers that differ.
    static func spansLike(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        var text = ""
        for index in 0..<count {
            let id = String(generator.next() as UInt64, radix: 16)
            text += "{\"name\":\"execute_tool read_log_tail\",\"spanId\":\"\(id)\",\"attributes\":[{\"key\":"
            text += "\"gen_ai.tool.call.id\",\"value\":{\"stringValue\":\"call_\(index)\"}}],\"kind\":1}"
        }
        return Array(text.utf8)
    }

    static func random(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }

    @Test(arguments: [0, 1, 2, 3, 258, 259, 40_000, 200_000])
    func whatItCompressesItReadsBack(count: Int) throws {
        for input in [
            Self.spansLike(count / 150 + 1).prefix(count).map { $0 }, Self.random(count),
            [UInt8](repeating: 7, count: count),
        ] {
            let compressed = Gzip.compress(input)
            #expect(try Gzip.decompress(compressed, maxOutput: count + 1) == input)
        }
    }

    @Test func spansShrinkToAFifthOrLess() {
        let input = Self.spansLike(500)
        let compressed = Gzip.compress(input)
        #expect(compressed.count * 5 <= input.count, "\(input.count) → \(compressed.count) bytes")
    }

    /// The type of the first DEFLATE block of a gzip member: 0 stored, 1 fixed codes, 2 dynamic codes.
    static func firstBlockType(_ member: [UInt8]) -> UInt8 { member[10] >> 1 & 0b11 }

    @Test func textIsWrittenWithCodesOfItsOwnAndRandomBytesAsTheyAre() throws {
        let spans = Gzip.compress(Self.spansLike(500))
        #expect(Self.firstBlockType(spans) == 2, "a batch of spans gets dynamic Huffman codes")
        let input = Self.random(100_000)
        let random = Gzip.compress(input)
        #expect(Self.firstBlockType(random) == 0, "random bytes are stored")
        // Stored blocks cost five bytes per block of at most 16,384 bytes here; fixed codes would add about 6 %.
        #expect(random.count <= input.count + input.count / 500 + 18, "\(input.count) → \(random.count) bytes")
        #expect(try Gzip.decompress(random, maxOutput: input.count) == input)
        #expect(Self.firstBlockType(Gzip.compress(Array("a".utf8))) == 1, "one byte is cheapest in fixed codes")
    }

    @Test func aSkewedInputNeedsCodesCutToFifteenBitsAndStillReadsBack() throws {
        // Byte i occurs fib(i) times: a Huffman tree of these counts is 24 levels deep, DEFLATE allows 15.
        var fibonacci = [1, 1]
        while fibonacci.count < 25 { fibonacci.append(fibonacci[fibonacci.count - 1] + fibonacci[fibonacci.count - 2]) }
        let code = HuffmanCode(counts: fibonacci, limit: 15)
        #expect(code.lengths.max() == 15)
        let kraft = code.lengths.reduce(0.0) { $0 + 1 / Double(1 << Int($1)) }
        #expect(kraft == 1, "the code is complete: every bit pattern is a symbol's")
        var generator = SystemRandomNumberGenerator()
        var input = fibonacci.enumerated().flatMap { byte, count in [UInt8](repeating: UInt8(byte), count: count) }
        input.shuffle(using: &generator)
        #expect(try Gzip.decompress(Gzip.compress(input), maxOutput: input.count) == input)
        // A code of one used symbol still gets two codes, as zlib's reader wants.
        #expect(HuffmanCode(counts: [0, 0, 5, 0], limit: 7).lengths == [1, 0, 1, 0])
    }

    @Test func damagedOrOversizedDataIsAnErrorThatSaysWhy() {
        let input = Self.spansLike(100)
        let compressed = Gzip.compress(input)
        func failure(_ bytes: [UInt8], maxOutput: Int = 1 << 20) -> String? {
            do {
                _ = try Gzip.decompress(bytes, maxOutput: maxOutput)
                return nil
            } catch {
                return error.description
            }
        }
        #expect(failure(Array("plain text".utf8)) == "not gzip data (no 1f 8b header)")
        #expect(failure(Array(compressed.prefix(compressed.count / 2))) == "the DEFLATE stream ends early")
        var flipped = compressed
        flipped[flipped.count - 6] ^= 0xFF
        #expect(failure(flipped) == "the CRC-32 does not match the data")
        #expect(failure(compressed, maxOutput: input.count - 1) == "it inflates to more than \(input.count - 1) bytes")
        var reserved = compressed
        reserved[10] |= 0b110  // BTYPE 11
        #expect(failure(reserved) == "a DEFLATE block of the reserved type 3")
        // Whatever a byte's damage, the reader answers: never a crash, never more than the limit.
        for index in 10..<min(compressed.count, 400) {
            var damaged = compressed
            damaged[index] ^= 0x5A
            if let bytes = try? Gzip.decompress(damaged, maxOutput: input.count) { #expect(bytes.count <= input.count) }
        }
    }

    @Test func theChecksumIsTheStandardOne() {
        #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
        #expect(CRC32.checksum([]) == 0)
    }

    /// Eight bytes a step must give the polynomial's own answer, bit by bit, at every length and starting offset,
    /// and whether the bytes come at once or in pieces.
    @Test func eightBytesAStepAgreeWithTheBitByBitDefinition() {
        func bitByBit(_ bytes: ArraySlice<UInt8>) -> UInt32 {
            var crc: UInt32 = 0xFFFF_FFFF
            for byte in bytes {
                crc ^= UInt32(byte)
                for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
            }
            return ~crc
        }
        // Bytes that look random but are the same in every run, so a failure can be replayed.
        let bytes = (0..<300).map { UInt8(truncatingIfNeeded: ($0 &* 2_654_435_761) >> 11) }
        for start in 0..<9 {
            for end in start..<min(start + 80, bytes.count) {
                #expect(CRC32.checksum(Array(bytes[start..<end])) == bitByBit(bytes[start..<end]))
            }
        }
        for split in [0, 1, 7, 8, 9, 63, 150, 299, 300] {
            var crc = CRC32()
            bytes[..<split].withUnsafeBufferPointer { crc.update($0) }
            bytes[split...].withUnsafeBufferPointer { crc.update($0) }
            #expect(crc.value == bitByBit(bytes[...]), "split at \(split)")
        }
    }
}
