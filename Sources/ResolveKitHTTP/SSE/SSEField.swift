/// One field of the block being parsed (`data`, `event` or `id`). Its bytes stay where they are in the chunk
/// being parsed when they lie there whole, the usual case, and are copied only to be joined with another `data`
/// line or to outlive the chunk: ``SSEParser/parseBorrowing(_:_:)`` calls ``keepBeyondChunk()`` before it returns.
struct SSEField: Sendable {
    /// Bytes inside the chunk being parsed. Unchecked: set only during one parse call and cleared before it
    /// returns, so the pointer never outlives the chunk nor crosses a thread.
    private struct Borrowed: @unchecked Sendable {
        var bytes: UnsafeRawBufferPointer?
    }

    private var copy = SSEByteBuffer()
    private var borrowed = Borrowed()
    /// Whether the block had this field.
    private(set) var isSet = false

    /// The field's bytes, valid until the field is next changed or the chunk being parsed is left.
    var bytes: UnsafeRawBufferPointer { borrowed.bytes ?? copy.bytes }
    var count: Int { borrowed.bytes?.count ?? copy.count }

    /// Sets the field to `value`, borrowing it when it lies in the chunk being parsed.
    mutating func set(_ value: UnsafeRawBufferPointer, inChunk: Bool) {
        isSet = true
        if inChunk {
            borrowed.bytes = value
        } else {
            borrowed.bytes = nil
            copy.replace(with: value)
        }
    }

    /// Appends `separator` and `value` (the next `data` line).
    mutating func append(_ value: UnsafeRawBufferPointer, after separator: UInt8) {
        keepBeyondChunk()
        copy.append(separator)
        copy.append(value)
    }

    /// Copies borrowed bytes into the field's own buffer: the chunk they lie in is about to go.
    mutating func keepBeyondChunk() {
        guard let bytes = borrowed.bytes else { return }
        copy.replace(with: bytes)
        borrowed.bytes = nil
    }

    mutating func reset(keepingCapacityUpTo keptCapacity: Int) {
        borrowed.bytes = nil
        copy.removeAll(keepingCapacityUpTo: keptCapacity)
        isSet = false
    }
}
