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
/// Memory is bounded by ``Limits``: only the unfinished tail of the current line and the current event's data
/// are kept between chunks. Line ends are found with a 16-byte vector scan; nothing is allocated per byte.
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
    public internal(set) var lastEventID = ""
    /// The last valid `retry` value in milliseconds, if the server ever sent one.
    public internal(set) var reconnectionTime: Int?

    var tail: [UInt8] = []
    var skippingLine = false
    var discardingEvent = false
    var afterCR = false
    var atStreamStart = true
    var data = ""
    var hasData = false
    var eventType: String?
    var recentTypes = SSETypeCache()
    var eventID: String?
    var retry: Int?

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
        guard let base = chunk.baseAddress, !chunk.isEmpty else { return }
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
        let discarded = !tail.isEmpty || skippingLine || hasData || eventType != nil || eventID != nil
        tail.removeAll(keepingCapacity: true)
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

    private mutating func appendToTail(_ bytes: UnsafeRawBufferPointer, _ onOutput: (Output) -> Void) {
        guard !skippingLine else { return }
        let size = tail.count + bytes.count
        guard size <= limits.maxLineLength else {
            skippingLine = true
            tail.removeAll(keepingCapacity: false)
            fail(.lineTooLong, limit: limits.maxLineLength, size: size, onOutput)
            return
        }
        tail.append(contentsOf: bytes)
    }

    private mutating func endLine(_ segment: UnsafeRawBufferPointer, _ onOutput: (Output) -> Void) {
        if skippingLine {
            skippingLine = false
            atStreamStart = false
            return
        }
        let size = tail.count + segment.count
        guard size <= limits.maxLineLength else {
            tail.removeAll(keepingCapacity: false)
            atStreamStart = false
            fail(.lineTooLong, limit: limits.maxLineLength, size: size, onOutput)
            return
        }
        if tail.isEmpty {
            processLine(segment, onOutput)
            return
        }
        var line: [UInt8] = []
        swap(&line, &tail)
        line.append(contentsOf: segment)
        line.withUnsafeBytes { processLine($0, onOutput) }
        line.removeAll(keepingCapacity: line.capacity <= 1 << 16)
        swap(&line, &tail)
    }

    mutating func fail(_ code: SSEError.Code, limit: Int, size: Int, _ onOutput: (Output) -> Void) {
        resetEvent()
        discardingEvent = true
        onOutput(.failure(SSEError(code: code, limit: limit, size: size)))
    }

    mutating func resetEvent() {
        data = ""
        hasData = false
        eventType = nil
        eventID = nil
        retry = nil
    }
}
