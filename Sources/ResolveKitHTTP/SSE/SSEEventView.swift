extension SSEParser {
    /// What ``SSEParser/parseBorrowing(_:_:)`` lends, in stream order: the same outputs as ``Output``, as bytes
    /// valid only during the callback.
    public enum BorrowedOutput {
        /// A complete event.
        case event(SSEEventView)
        /// A comment line's bytes after the colon, one leading space removed.
        case comment(UnsafeRawBufferPointer)
        /// A limit was exceeded; the event was dropped and the parser skips to the next blank line.
        case failure(SSEError)
    }
}

/// A dispatched event lent by ``SSEParser/parseBorrowing(_:_:)``: its fields as raw bytes inside the parser's
/// buffers or the chunk being parsed, valid only until the callback returns. Make an ``SSEEvent`` to keep one.
public struct SSEEventView {
    /// The bytes of the block's `id` field, or `nil` when it had none (see ``SSEEvent/id``).
    public let id: UnsafeRawBufferPointer?
    /// The bytes of the event type: `message` when the block had no `event` field or an empty one.
    public let type: UnsafeRawBufferPointer
    /// The `data` fields joined with LF, as received: not decoded, so possibly invalid UTF-8. Their decoded size
    /// is within ``SSEParser/Limits/maxEventDataSize``.
    public let data: UnsafeRawBufferPointer
    /// The block's valid `retry` field in milliseconds, if any.
    public let retry: Int?

    static var defaultType: UnsafeRawBufferPointer {
        let message: StaticString = "message"
        return UnsafeRawBufferPointer(start: message.utf8Start, count: message.utf8CodeUnitCount)
    }
}

extension SSEEvent {
    /// Copies a lent event, decoding its bytes as UTF-8 with replacement characters.
    ///
    /// - Parameter view: An event lent by ``SSEParser/parseBorrowing(_:_:)``.
    public init(_ view: SSEEventView) {
        self.init(view, type: String(decoding: view.type, as: UTF8.self))
    }

    init(_ view: SSEEventView, type: String) {
        self.init(
            id: view.id.map { String(decoding: $0, as: UTF8.self) }, type: type,
            data: String(decoding: view.data, as: UTF8.self), retry: view.retry)
    }
}
