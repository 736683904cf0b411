/// A fast, non-cryptographic fingerprint of a file's bytes, for telling whether a cached model is still current.
///
/// FNV-1a 64 taken over 8-byte words, then over the remaining bytes: the byte-at-a-time form costs a multiply per
/// byte, a tenth of reading the file again. Each step is a bijection of the running state, so two inputs that differ in
/// a single word never collide; the cache key adds the path and size besides.
enum ContentHash {
    static let offsetBasis: UInt64 = 0xcbf2_9ce4_8422_2325
    static let prime: UInt64 = 0x0000_0100_0000_01B3

    /// The fingerprint of `bytes`.
    static func fnv1a64(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var hash = offsetBasis
        var offset = 0
        while offset + 8 <= bytes.count {
            hash = (hash ^ bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) &* prime
            offset += 8
        }
        while offset < bytes.count {
            hash = (hash ^ UInt64(bytes[offset])) &* prime
            offset += 1
        }
        return hash
    }

    /// The fingerprint of a string's UTF-8 bytes.
    static func fnv1a64(_ text: String) -> UInt64 {
        var text = text
        return text.withUTF8 { fnv1a64(UnsafeRawBufferPointer($0)) }
    }
}
