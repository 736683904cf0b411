import Glibc

/// An incremental parser for the `text/event-stream` format (WHATWG HTML, "Server-sent events").
///
/// Feed it byte chunks exactly as they arrive, split anywhere; it reports each dispatched event, each comment
/// line and each exceeded limit through a callback, in stream order. It is a pure value type: no I/O, no
/// clock, no locks. One parser serves one resumable stream: call ``finish()`` when a connection ends and keep
/// using the same value for the next connection, so ``lastEventID`` carries over.
///
/// Rules implemented: LF, CR and CRLF line ends (a CRLF split across chunks counts once); one leading UTF-8 BOM
/// per connection is stripped; lines starting with `:` are comments; fields `event`, `data`, `id`, `retry`;
/// one space after the colon is removed; a line without a colon is a field with an empty value; `data` lines
/// are joined with `"\n"`; an `id` containing NUL is ignored; `retry` must be ASCII digits only; unknown
/// fields are ignored; a blank line dispatches; a block without `data` is not dispatched; an unterminated
/// block at end of stream is discarded. Bytes are decoded as UTF-8 with replacement characters.
///
/// Memory is bounded by ``Limits``: only the unfinished tail of the current line and the current event's fields
/// are kept between chunks, in buffers reused from event to event. Line ends are found with a vector scan;
/// nothing is allocated per byte. ``parseBorrowing(_:_:)`` lends each event's bytes out of those buffers and
/// allocates nothing per event; ``parse(_:_:)`` builds owned ``SSEEvent`` values on top of it.
public struct SSEParser: Sendable {
    /// Hard limits on what one line and one event may hold.
    public struct Limits: Sendable, Hashable {
        /// The longest accepted line in bytes, without its line end. Default 1 MiB.
        public var maxLineLength: Int
        /// The largest accepted joined `data` of one event, in UTF-8 bytes after decoding. Default 4 MiB.
        public var maxEventDataSize: Int

        /// Creates limits.
        ///
        /// - Parameters:
        ///   - maxLineLength: The longest accepted line in bytes.
        ///   - maxEventDataSize: The largest accepted event data in bytes.
        public init(maxLineLength: Int = 1 << 20, maxEventDataSize: Int = 4 << 20) {
            self.maxLineLength = maxLineLength
            self.maxEventDataSize = maxEventDataSize
        }
    }

    /// What the parser reports, in stream order.
    public enum Output: Sendable, Hashable {
        /// A complete event.
        case event(SSEEvent)
        /// A comment line (e.g. `: keep-alive`), its text after the colon with one leading space removed.
        case comment(String)
        /// A limit was exceeded; the event was dropped and the parser skips to the next blank line.
        case failure(SSEError)
    }

    /// The limits this parser enforces.
    public let limits: Limits
    /// The stream's last event id as WHATWG defines it: set when a block with an `id` field ends (dispatched or
    /// not); kept across events and across ``finish()``; empty when never set or reset by an empty `id`. The id of
    /// a block cut short by ``finish()`` or dropped for exceeding a limit is not adopted.
    public var lastEventID: String { String(decoding: lastID.bytes, as: UTF8.self) }
    /// The last valid `retry` value in milliseconds, if the server ever sent one.
    public internal(set) var reconnectionTime: Int?

    var tail = SSEByteBuffer()
    var skippingLine = false
    var discardingEvent = false
    var afterCR = false
    var atStreamStart = true
    /// The current block's fields as raw bytes.
    var data = SSEField()
    /// The decoded UTF-8 size of `data`, tracked only once the raw size is large enough to matter for the limit.
    var decodedDataSize: Int?
    var type = SSEField()
    var id = SSEField()
    var retry: Int?
    var lastID = SSEByteBuffer()
    var recentTypes = SSETypeCache()

    /// Creates a parser.
    ///
    /// - Parameter limits: The line and event limits; the defaults suit ResolveKit's stream.
    public init(limits: Limits = Limits()) {
        self.limits = limits
    }

    /// Parses one chunk, calling `onOutput` for everything it completes.
    ///
    /// - Parameters:
    ///   - chunk: The next bytes of the stream; may end anywhere, even inside a CRLF or a UTF-8 sequence.
    ///   - onOutput: Called synchronously, in stream order.
    public mutating func parse(_ chunk: UnsafeRawBufferPointer, _ onOutput: (Output) -> Void) {
        // The type cache leaves `self` for the call: the borrowing parse holds `self` while the closure runs.
        var types = SSETypeCache()
        swap(&types, &recentTypes)
        defer { swap(&types, &recentTypes) }
        parseBorrowing(chunk) { output in
            switch output {
            case .event(let view): onOutput(.event(SSEEvent(view, type: types.type(for: view.type))))
            case .comment(let text): onOutput(.comment(String(decoding: text, as: UTF8.self)))
            case .failure(let error): onOutput(.failure(error))
            }
        }
    }

    /// Parses one chunk, lending `onOutput` everything it completes as bytes inside the chunk or the parser's
    /// own buffers: nothing is allocated per event. The bytes are valid only until `onOutput` returns.
    ///
    /// - Parameters:
    ///   - chunk: The next bytes of the stream; may end anywhere, even inside a CRLF or a UTF-8 sequence.
    ///   - onOutput: Called synchronously, in stream order.
    public mutating func parseBorrowing(_ chunk: UnsafeRawBufferPointer, _ onOutput: (BorrowedOutput) -> Void) {
        guard let base = chunk.baseAddress, !chunk.isEmpty else { return }
        defer {
            data.keepBeyondChunk()
            type.keepBeyondChunk()
            id.keepBeyondChunk()
        }
        let count = chunk.count
        var position = 0
        if afterCR {
            afterCR = false
            if base.load(as: UInt8.self) == Self.lf { position = 1 }
        }
        while position < count {
            let end = Self.lineEnd(in: base, from: position, to: count)
            guard end < count else {
                appendToTail(UnsafeRawBufferPointer(start: base + position, count: count - position), onOutput)
                return
            }
            endLine(UnsafeRawBufferPointer(start: base + position, count: end - position), onOutput)
            position = end + 1
            if base.load(fromByteOffset: end, as: UInt8.self) == Self.cr {
                if position == count {
                    afterCR = true
                } else if base.load(fromByteOffset: position, as: UInt8.self) == Self.lf {
                    position += 1
                }
            }
        }
    }

    /// Parses bytes from any sequence; a convenience over ``parse(_:_:)`` for tests and small inputs.
    ///
    /// - Parameter bytes: The next bytes of the stream.
    /// - Returns: Everything the bytes completed, in stream order.
    public mutating func parse(_ bytes: some Sequence<UInt8>) -> [Output] {
        var outputs: [Output] = []
        let handled: Void? = bytes.withContiguousStorageIfAvailable { buffer in
            parse(UnsafeRawBufferPointer(buffer)) { outputs.append($0) }
        }
        if handled == nil {
            Array(bytes).withUnsafeBytes { buffer in parse(buffer) { outputs.append($0) } }
        }
        return outputs
    }

    /// Ends the current connection's bytes: an unterminated line or event is discarded, never dispatched.
    ///
    /// The parser is ready for the next connection afterwards (its leading BOM is stripped again);
    /// ``lastEventID`` and ``reconnectionTime`` are kept.
    ///
    /// - Returns: Whether an incomplete line or event was discarded.
    @discardableResult
    public mutating func finish() -> Bool {
        let discarded = !tail.isEmpty || skippingLine || data.isSet || type.isSet || id.isSet
        tail.removeAll(keepingCapacityUpTo: Self.keptCapacity)
        skippingLine = false
        discardingEvent = false
        afterCR = false
        atStreamStart = true
        resetEvent()
        return discarded
    }

    static let lf: UInt8 = 0x0A
    static let cr: UInt8 = 0x0D

    /// The offset of the first `byte` in `base[from..<to]`, or `to` when there is none.
    @inline(__always)
    static func find(_ byte: UInt8, in base: UnsafeRawPointer, from: Int, to: Int) -> Int {
        guard from < to, let hit = memchr(base + from, Int32(byte), to - from) else { return to }
        return UnsafeRawPointer(hit) - base
    }

    private mutating func appendToTail(_ bytes: UnsafeRawBufferPointer, _ onOutput: (BorrowedOutput) -> Void) {
        guard !skippingLine else { return }
        let size = tail.count + bytes.count
        guard size <= limits.maxLineLength else {
            skippingLine = true
            tail.removeAll(keepingCapacityUpTo: Self.keptCapacity)
            fail(.lineTooLong, limit: limits.maxLineLength, size: size, onOutput)
            return
        }
        tail.append(bytes)
    }

    private mutating func endLine(_ segment: UnsafeRawBufferPointer, _ onOutput: (BorrowedOutput) -> Void) {
        if skippingLine {
            skippingLine = false
            atStreamStart = false
            return
        }
        let size = tail.count + segment.count
        guard size <= limits.maxLineLength else {
            tail.removeAll(keepingCapacityUpTo: Self.keptCapacity)
            atStreamStart = false
            fail(.lineTooLong, limit: limits.maxLineLength, size: size, onOutput)
            return
        }
        if tail.isEmpty {
            processLine(segment, inChunk: true, onOutput)
            return
        }
        // The joined line leaves `self` while it is processed, which mutates `self`.
        var line = SSEByteBuffer()
        swap(&line, &tail)
        line.append(segment)
        processLine(line.bytes, inChunk: false, onOutput)
        line.removeAll(keepingCapacityUpTo: Self.keptCapacity)
        swap(&line, &tail)
    }

    mutating func fail(_ code: SSEError.Code, limit: Int, size: Int, _ onOutput: (BorrowedOutput) -> Void) {
        resetEvent()
        discardingEvent = true
        onOutput(.failure(SSEError(code: code, limit: limit, size: size)))
    }

    mutating func resetEvent() {
        data.reset(keepingCapacityUpTo: Self.keptCapacity)
        decodedDataSize = nil
        type.reset(keepingCapacityUpTo: Self.keptCapacity)
        id.reset(keepingCapacityUpTo: Self.keptCapacity)
        retry = nil
    }

    /// Buffers up to this size keep their storage for the next event; a rare huge event gives its memory back.
    static let keptCapacity = 1 << 16
}
