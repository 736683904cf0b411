/// A canonical Huffman code as DEFLATE writes it: each symbol's length and its code, bit-reversed because codes
/// go into the stream from their first bit.
struct HuffmanCode {
    let lengths: [UInt8]
    private let codes: [UInt16]

    /// The canonical code of these lengths (RFC 1951 §3.2.2); 0 means the symbol has no code.
    init(lengths: [UInt8]) {
        self.lengths = lengths
        var perLength = [Int](repeating: 0, count: 16)
        for length in lengths where length > 0 { perLength[Int(length)] += 1 }
        var next = [Int](repeating: 0, count: 16)
        var code = 0
        for length in 1...15 {
            code = (code + perLength[length - 1]) << 1
            next[length] = code
        }
        var codes = [UInt16](repeating: 0, count: lengths.count)
        for (symbol, length) in lengths.enumerated() where length > 0 {
            codes[symbol] = UInt16(Self.reversed(next[Int(length)], Int(length)))
            next[Int(length)] += 1
        }
        self.codes = codes
    }

    /// The shortest code for symbols occurring `counts` times, with no code longer than `limit` bits. At least two
    /// symbols get a code (the first unused ones when fewer occur), so the code is complete, as zlib's reader
    /// wants it.
    init(counts: [Int], limit: Int) {
        var symbols = counts.indices.filter { counts[$0] > 0 }
        for unused in counts.indices where symbols.count < 2 && counts[unused] == 0 { symbols.append(unused) }
        symbols.sort { (counts[$0], $0) < (counts[$1], $1) }
        let depths = Self.depths(symbols.map { counts[$0] })
        // Too deep a code is made shallower the way miniz does: clamp, then push codes down until the lengths fit.
        var perLength = [Int](repeating: 0, count: limit + 1)
        for depth in depths { perLength[min(depth, limit)] += 1 }
        var kraft = (1...limit).reduce(0) { $0 + perLength[$1] << (limit - $1) }
        while kraft > 1 << limit {
            perLength[limit] -= 1
            if let shorter = (1..<limit).reversed().first(where: { perLength[$0] > 0 }) {
                perLength[shorter] -= 1
                perLength[shorter + 1] += 2
            }
            kraft -= 1
        }
        // The most frequent symbols (last in `symbols`) take the shortest lengths.
        var lengths = [UInt8](repeating: 0, count: counts.count)
        var index = symbols.count - 1
        for length in 1...limit {
            for _ in 0..<perLength[length] {
                lengths[symbols[index]] = UInt8(length)
                index -= 1
            }
        }
        self.init(lengths: lengths)
    }

    /// Each leaf's depth in a Huffman tree of `weights` (ascending, at least two), built with two queues: the leaves
    /// in order, and the joined nodes, which come out in order too.
    private static func depths(_ weights: [Int]) -> [Int] {
        let leaves = weights.count
        var weight = weights
        weight.reserveCapacity(2 * leaves - 1)
        var parent = [Int](repeating: 0, count: 2 * leaves - 1)
        var nextLeaf = 0
        var nextJoined = leaves
        for joined in leaves..<(2 * leaves - 1) {
            var pair = (0, 0)
            for slot in 0..<2 {
                let takesLeaf = nextLeaf < leaves && (nextJoined >= joined || weight[nextLeaf] <= weight[nextJoined])
                let node = takesLeaf ? nextLeaf : nextJoined
                if takesLeaf { nextLeaf += 1 } else { nextJoined += 1 }
                if slot == 0 { pair.0 = node } else { pair.1 = node }
            }
            weight.append(weight[pair.0] + weight[pair.1])
            parent[pair.0] = joined
            parent[pair.1] = joined
        }
        var depth = [Int](repeating: 0, count: 2 * leaves - 1)
        for node in stride(from: 2 * leaves - 3, through: 0, by: -1) { depth[node] = depth[parent[node]] + 1 }
        return Array(depth[..<leaves])
    }

    func write(_ symbol: Int, to output: inout BitWriter) {
        output.write(Int(codes[symbol]), bits: Int(lengths[symbol]))
    }

    /// The bits symbols occurring `counts` times take in this code.
    func bits(for counts: [Int]) -> Int {
        zip(counts, lengths).reduce(0) { $0 + $1.0 * Int($1.1) }
    }

    static func reversed(_ code: Int, _ length: Int) -> Int {
        var result = 0
        for bit in 0..<length where code & (1 << bit) != 0 { result |= 1 << (length - 1 - bit) }
        return result
    }
}

/// The codes of a fixed-code block (RFC 1951 §3.2.6).
enum FixedCodes {
    static let literals = HuffmanCode(
        lengths: [UInt8](repeating: 8, count: 144) + [UInt8](repeating: 9, count: 112)
            + [UInt8](repeating: 7, count: 24) + [UInt8](repeating: 8, count: 8))
    static let distances = HuffmanCode(lengths: [UInt8](repeating: 5, count: 30))
}

/// The codes of a dynamic block, built from its symbol counts, and the header that describes them: the code
/// lengths, run-length coded, in a third Huffman code of their own.
struct DynamicCodes {
    let literals: HuffmanCode
    let distances: HuffmanCode
    /// The bits the header takes.
    let headerBits: Int
    private let literalCount: Int
    private let distanceCount: Int
    private let lengthCode: HuffmanCode
    private let lengthCodeCount: Int
    /// The code lengths as the length code's symbols (0…15 a length, 16 repeat the last, 17 and 18 runs of zeros),
    /// each with its extra bits' value.
    private let runs: [(symbol: Int, extra: Int)]

    init(literalCounts: [Int], distanceCounts: [Int]) {
        let literals = HuffmanCode(counts: literalCounts, limit: 15)
        let distances = HuffmanCode(counts: distanceCounts, limit: 15)
        let literalCount = max(257, (literals.lengths.lastIndex { $0 != 0 } ?? 0) + 1)
        let distanceCount = max(1, (distances.lengths.lastIndex { $0 != 0 } ?? 0) + 1)
        let runs = Self.runs(Array(literals.lengths[..<literalCount] + distances.lengths[..<distanceCount]))
        var counts = [Int](repeating: 0, count: 19)
        for run in runs { counts[run.symbol] += 1 }
        let lengthCode = HuffmanCode(counts: counts, limit: 7)
        let lengthCodeCount = max(4, (Deflate.codeLengthOrder.lastIndex { lengthCode.lengths[$0] != 0 } ?? 0) + 1)
        headerBits =
            14 + 3 * lengthCodeCount
            + runs.reduce(0) { $0 + Int(lengthCode.lengths[$1.symbol]) + Self.extraBits[$1.symbol] }
        (self.literals, self.distances, self.literalCount, self.distanceCount) =
            (literals, distances, literalCount, distanceCount)
        (self.runs, self.lengthCode, self.lengthCodeCount) = (runs, lengthCode, lengthCodeCount)
    }

    /// Extra bits after each length-code symbol.
    private static let extraBits = [Int](repeating: 0, count: 16) + [2, 3, 7]

    func writeHeader(to output: inout BitWriter) {
        output.write(literalCount - 257, bits: 5)
        output.write(distanceCount - 1, bits: 5)
        output.write(lengthCodeCount - 4, bits: 4)
        for symbol in Deflate.codeLengthOrder.prefix(lengthCodeCount) {
            output.write(Int(lengthCode.lengths[symbol]), bits: 3)
        }
        for run in runs {
            lengthCode.write(run.symbol, to: &output)
            output.write(run.extra, bits: Self.extraBits[run.symbol])
        }
    }

    /// `lengths` run-length coded: zeros in runs of 3–10 (17) and 11–138 (18), another length once and then
    /// repeated 3–6 times at a go (16).
    private static func runs(_ lengths: [UInt8]) -> [(symbol: Int, extra: Int)] {
        var runs: [(symbol: Int, extra: Int)] = []
        var index = 0
        while index < lengths.count {
            let length = Int(lengths[index])
            var remaining = 1
            while index + remaining < lengths.count, lengths[index + remaining] == lengths[index] { remaining += 1 }
            index += remaining
            if length == 0 {
                while remaining >= 11 {
                    let run = min(remaining, 138)
                    runs.append((18, run - 11))
                    remaining -= run
                }
                if remaining >= 3 {
                    runs.append((17, remaining - 3))
                    remaining = 0
                }
            } else {
                runs.append((length, 0))
                remaining -= 1
                while remaining >= 3 {
                    let run = min(remaining, 6)
                    runs.append((16, run - 3))
                    remaining -= run
                }
            }
            for _ in 0..<remaining { runs.append((length, 0)) }
        }
        return runs
    }
}
