/// The last few `event` field values an ``SSEParser`` saw, so a repeated type reuses its `String`.
///
/// Types repeat on every stream, and one of more than 15 bytes (e.g. `tool_call_request`) would otherwise allocate
/// for every event. The keys live in one flat table of fixed slots (a length byte, then the bytes), so a lookup
/// is a length check and a short byte comparison, with no `memcmp` call and no retain of a per-entry array.
struct SSETypeCache: Sendable {
    static let slots = 8
    static let slotSize = 32

    /// Allocated with the first entry, so an empty cache costs nothing to create.
    private var keys: [UInt8] = []
    private var types: [String] = []
    private var next = 0

    /// The cached `String` for these bytes, creating (and caching, when short enough) a new one on a miss.
    mutating func type(for value: UnsafeRawBufferPointer) -> String {
        let count = value.count
        guard count < Self.slotSize else { return String(decoding: value, as: UTF8.self) }
        let used = types.count
        let hit: Int? = keys.withUnsafeBytes { keys in
            for slot in 0..<used {
                let key = keys.baseAddress! + slot &* Self.slotSize
                guard key.load(as: UInt8.self) == UInt8(truncatingIfNeeded: count) else { continue }
                var index = 0
                while index < count,
                    key.load(fromByteOffset: index &+ 1, as: UInt8.self)
                        == value.load(fromByteOffset: index, as: UInt8.self)
                {
                    index &+= 1
                }
                if index == count { return slot }
            }
            return nil
        }
        if let hit { return types[hit] }
        let type = String(decoding: value, as: UTF8.self)
        let slot: Int
        if used < Self.slots {
            slot = used
            types.append(type)
        } else {
            slot = next
            next = (next + 1) % Self.slots
            types[slot] = type
        }
        if keys.isEmpty { keys = [UInt8](repeating: 0, count: Self.slots * Self.slotSize) }
        keys.withUnsafeMutableBytes { keys in
            let key = keys.baseAddress! + slot * Self.slotSize
            key.storeBytes(of: UInt8(truncatingIfNeeded: count), as: UInt8.self)
            if count > 0 { (key + 1).copyMemory(from: value.baseAddress!, byteCount: count) }
        }
        return type
    }
}
