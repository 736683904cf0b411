/// DEFLATE (RFC 1951) decompression: stored, fixed and dynamic Huffman blocks, with canonical codes decoded bit by
/// bit as zlib's reference decoder `puff` does. Every read is bounded: a truncated or malformed stream, or output
/// past `maxOutput`, is an error, never a crash.
package struct Inflate {
    private let input: UnsafeBufferPointer<UInt8>
    /// The next byte to read.
    private(set) var offset: Int
    private var bitBuffer = 0
    private var bitCount = 0
    private var output: [UInt8] = []
    private let maxOutput: Int

    private init(_ input: UnsafeBufferPointer<UInt8>, offset: Int, maxOutput: Int) {
        self.input = input
        self.offset = offset
        self.maxOutput = maxOutput
    }

    /// The bytes of the DEFLATE stream starting at `offset` of `input`, and the offset just past it.
    /// - Throws: ``GzipError`` when the stream is malformed or truncated, or inflates past `maxOutput` bytes.
    package static func decompress(
        _ input: UnsafeBufferPointer<UInt8>, from offset: Int, maxOutput: Int
    ) throws(GzipError) -> (bytes: [UInt8], end: Int) {
        var inflate = Inflate(input, offset: offset, maxOutput: maxOutput)
        var isFinal = false
        while !isFinal {
            isFinal = try inflate.bits(1) == 1
            switch try inflate.bits(2) {
            case 0: try inflate.storedBlock()
            case 1: try inflate.codedBlock(Huffman.fixedLiterals, Huffman.fixedDistances)
            case 2:
                let (literals, distances) = try inflate.dynamicTables()
                try inflate.codedBlock(literals, distances)
            default: throw GzipError("a DEFLATE block of the reserved type 3")
            }
        }
        return (inflate.output, inflate.offset)
    }

    private mutating func bits(_ count: Int) throws(GzipError) -> Int {
        while bitCount < count {
            guard offset < input.count else { throw GzipError("the DEFLATE stream ends early") }
            bitBuffer |= Int(input[offset]) << bitCount
            offset += 1
            bitCount += 8
        }
        let value = bitBuffer & ((1 << count) - 1)
        bitBuffer >>= count
        bitCount -= count
        return value
    }

    private mutating func storedBlock() throws(GzipError) {
        bitBuffer = 0
        bitCount = 0
        guard offset + 4 <= input.count else { throw GzipError("the DEFLATE stream ends early") }
        let length = Int(input[offset]) | Int(input[offset + 1]) << 8
        let complement = Int(input[offset + 2]) | Int(input[offset + 3]) << 8
        guard length == ~complement & 0xFFFF else { throw GzipError("a stored block's length does not check") }
        offset += 4
        guard offset + length <= input.count else { throw GzipError("the DEFLATE stream ends early") }
        try reserve(length)
        output.append(contentsOf: input[offset..<(offset + length)])
        offset += length
    }

    private mutating func reserve(_ count: Int) throws(GzipError) {
        guard output.count + count <= maxOutput else {
            throw GzipError("it inflates to more than \(maxOutput) bytes")
        }
    }

    private mutating func decode(_ code: Huffman) throws(GzipError) -> Int {
        var value = 0
        var first = 0
        var index = 0
        for length in 1...Huffman.maxBits {
            value |= try bits(1)
            let count = code.counts[length]
            if value - first < count { return code.symbols[index + value - first] }
            index += count
            first = (first + count) << 1
            value <<= 1
        }
        throw GzipError("a Huffman code that no symbol has")
    }

    private mutating func codedBlock(_ literals: Huffman, _ distances: Huffman) throws(GzipError) {
        while true {
            let symbol = try decode(literals)
            if symbol < 256 {
                try reserve(1)
                output.append(UInt8(symbol))
            } else if symbol == 256 {
                return
            } else {
                let lengthIndex = symbol - 257
                guard lengthIndex < Deflate.lengthBases.count else { throw GzipError("an invalid length symbol") }
                let length = Deflate.lengthBases[lengthIndex] + (try bits(Deflate.lengthExtraBits[lengthIndex]))
                let distanceIndex = try decode(distances)
                guard distanceIndex < Deflate.distanceBases.count else {
                    throw GzipError("an invalid distance symbol")
                }
                let distance =
                    Deflate.distanceBases[distanceIndex] + (try bits(Deflate.distanceExtraBits[distanceIndex]))
                guard distance <= output.count else { throw GzipError("a match reaches before the start") }
                try reserve(length)
                let start = output.count - distance
                for step in 0..<length { output.append(output[start + step]) }
            }
        }
    }

    private mutating func dynamicTables() throws(GzipError) -> (Huffman, Huffman) {
        let literalCount = try bits(5) + 257
        let distanceCount = try bits(5) + 1
        let codeLengthCount = try bits(4) + 4
        guard literalCount <= 286, distanceCount <= 30 else { throw GzipError("too many codes in a dynamic block") }
        var codeLengths = [Int](repeating: 0, count: 19)
        for index in 0..<codeLengthCount { codeLengths[Deflate.codeLengthOrder[index]] = try bits(3) }
        let lengthCode = try Huffman(lengths: codeLengths)
        var lengths: [Int] = []
        while lengths.count < literalCount + distanceCount {
            let symbol = try decode(lengthCode)
            switch symbol {
            case 0...15: lengths.append(symbol)
            case 16:
                guard let last = lengths.last else { throw GzipError("a repeat with nothing before it") }
                lengths += repeatElement(last, count: 3 + (try bits(2)))
            case 17: lengths += repeatElement(0, count: 3 + (try bits(3)))
            default: lengths += repeatElement(0, count: 11 + (try bits(7)))
            }
        }
        guard lengths.count == literalCount + distanceCount, lengths[256] != 0 else {
            throw GzipError("a dynamic block's code lengths do not add up")
        }
        return (
            try Huffman(lengths: Array(lengths[..<literalCount])),
            try Huffman(lengths: Array(lengths[literalCount...]))
        )
    }
}

/// A canonical Huffman code: how many codes of each length, and the symbols in code order.
private struct Huffman {
    static let maxBits = 15
    var counts: [Int]
    var symbols: [Int]

    /// The code of these lengths (0: the symbol is not used).
    /// - Throws: ``GzipError`` when the lengths ask for more codes than there are (over-subscribed).
    init(lengths: [Int]) throws(GzipError) {
        self.init(counting: lengths)
        var left = 1
        for length in 1...Self.maxBits {
            left = (left << 1) - counts[length]
            guard left >= 0 else { throw GzipError("an over-subscribed Huffman code") }
        }
    }

    /// The code of lengths known to be valid.
    private init(counting lengths: [Int]) {
        counts = Array(repeating: 0, count: Self.maxBits + 1)
        for length in lengths { counts[length] += 1 }
        var offsets = Array(repeating: 0, count: Self.maxBits + 2)
        for length in 1...Self.maxBits { offsets[length + 1] = offsets[length] + counts[length] }
        symbols = Array(repeating: 0, count: lengths.count)
        for (symbol, length) in lengths.enumerated() where length != 0 {
            symbols[offsets[length]] = symbol
            offsets[length] += 1
        }
        counts[0] = 0
    }

    static let fixedLiterals = Huffman(
        counting: Array(repeating: 8, count: 144) + Array(repeating: 9, count: 112) + Array(repeating: 7, count: 24)
            + Array(repeating: 8, count: 8))
    static let fixedDistances = Huffman(counting: Array(repeating: 5, count: 30))
}
