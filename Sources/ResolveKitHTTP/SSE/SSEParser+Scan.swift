extension SSEParser {
    /// The offset of the first LF or CR in `base[from..<to]`, or `to` when there is none.
    ///
    /// One pass for both line-end bytes, 16 bytes at a time (the comparisons compile to SSE2 `pcmpeqb`/`pmovmskb`
    /// on x86-64 and NEON on arm64). It replaces one `memchr` for CR over the whole chunk plus one `memchr` for
    /// LF per line: most SSE lines are short (`id`, `event`, blank lines), where the call overhead dominated.
    @inline(__always)
    static func lineEnd(in base: UnsafeRawPointer, from: Int, to: Int) -> Int {
        let lfs = SIMD16<UInt8>(repeating: lf)
        let crs = SIMD16<UInt8>(repeating: cr)
        var position = from
        while to &- position >= 32 {
            let first = base.loadUnaligned(fromByteOffset: position, as: SIMD16<UInt8>.self)
            let second = base.loadUnaligned(fromByteOffset: position &+ 16, as: SIMD16<UInt8>.self)
            if any((first .== lfs) .| (first .== crs) .| (second .== lfs) .| (second .== crs)) { break }
            position &+= 32
        }
        while to &- position >= 16 {
            let bytes = base.loadUnaligned(fromByteOffset: position, as: SIMD16<UInt8>.self)
            if any((bytes .== lfs) .| (bytes .== crs)) {
                // Somewhere in these 16 bytes: locate it without a byte loop.
                let low = firstLineEnd(in: base.loadUnaligned(fromByteOffset: position, as: UInt64.self))
                if low < 8 { return position &+ low }
                let high = firstLineEnd(in: base.loadUnaligned(fromByteOffset: position &+ 8, as: UInt64.self))
                return position &+ 8 &+ high
            }
            position &+= 16
        }
        while position < to {
            let byte = base.load(fromByteOffset: position, as: UInt8.self)
            if byte == lf || byte == cr { return position }
            position &+= 1
        }
        return to
    }

    /// The index of the first LF or CR byte in 8 bytes as loaded from memory, or 8 when there is none.
    ///
    /// The classic "has a zero byte" test on `word ^ LF` and `word ^ CR`: a borrow can flag a byte above a real
    /// match, never below one, so the lowest flag is exact.
    @inline(__always)
    static func firstLineEnd(in loaded: UInt64) -> Int {
        let word = UInt64(littleEndian: loaded)
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let lfBytes = word ^ (ones &* UInt64(lf))
        let crBytes = word ^ (ones &* UInt64(cr))
        let flags = ((lfBytes &- ones) & ~lfBytes | (crBytes &- ones) & ~crBytes) & highs
        return flags.trailingZeroBitCount >> 3
    }

    /// Whether `line` starts with `name` followed by a colon; `name` is 2 to 5 ASCII bytes packed little-endian.
    @inline(__always)
    static func starts(_ line: UnsafeRawBufferPointer, with name: UInt64, length: Int) -> Bool {
        guard line.count > length else { return false }
        var packed: UInt64 = 0
        for index in 0..<length {
            packed |= UInt64(line.load(fromByteOffset: index, as: UInt8.self)) << (8 * UInt64(index))
        }
        return packed == name && line.load(fromByteOffset: length, as: UInt8.self) == UInt8(ascii: ":")
    }

    /// `"data"`, `"id"`, `"event"` and `"retry"` packed little-endian for ``starts(_:with:length:)``.
    static let dataName: UInt64 = 0x6174_6164
    static let idName: UInt64 = 0x6469
    static let eventName: UInt64 = 0x74_6E65_7665
    static let retryName: UInt64 = 0x79_7274_6572
}
