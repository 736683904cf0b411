/// A growable byte buffer for the parser's per-event fields, copy-on-write like `Array` but cheaper where the
/// parser is hot: emptying it is one store and keeps the storage for the next event, and ``bytes`` reads the
/// contents without a closure (each `Array.withUnsafeBytes` retained and released its storage).
struct SSEByteBuffer: Sendable {
    /// Mutated only through a uniquely referenced buffer, as `Array` does.
    private final class Storage: @unchecked Sendable {
        let pointer: UnsafeMutableRawPointer
        let capacity: Int

        init(capacity: Int) {
            pointer = .allocate(byteCount: capacity, alignment: 16)
            self.capacity = capacity
        }

        deinit { pointer.deallocate() }
    }

    private var storage: Storage?
    private(set) var count = 0

    var isEmpty: Bool { count == 0 }

    /// The contents, valid until this buffer is next mutated or destroyed.
    var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: storage?.pointer, count: count) }

    /// Forgets the contents; storage beyond `keptCapacity` bytes is given back.
    mutating func removeAll(keepingCapacityUpTo keptCapacity: Int) {
        count = 0
        if let storage, storage.capacity > keptCapacity { self.storage = nil }
    }

    mutating func append(_ bytes: UnsafeRawBufferPointer) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        let target = reserve(bytes.count)
        target.copyMemory(from: source, byteCount: bytes.count)
    }

    mutating func append(_ byte: UInt8) {
        reserve(1).storeBytes(of: byte, as: UInt8.self)
    }

    mutating func replace(with bytes: UnsafeRawBufferPointer) {
        count = 0
        append(bytes)
    }

    /// Makes room for `extra` more bytes (at least doubling, never sharing) and counts them; returns where they go.
    private mutating func reserve(_ extra: Int) -> UnsafeMutableRawPointer {
        let start = count
        count += extra
        if isKnownUniquelyReferenced(&storage), let storage, storage.capacity >= count {
            return storage.pointer + start
        }
        let grown = Storage(capacity: max(count, 2 * (storage?.capacity ?? 0), 64))
        if let storage, start > 0 { grown.pointer.copyMemory(from: storage.pointer, byteCount: start) }
        storage = grown
        return grown.pointer + start
    }
}
