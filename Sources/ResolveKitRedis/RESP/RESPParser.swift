import Glibc

/// An incremental parser of RESP2 and RESP3 replies: byte chunks in, whole values out.
///
/// A pure value: feed it chunks as they arrive, split anywhere, and it hands out each complete top-level value in
/// order; the same bytes give the same values whatever the chunking. It holds at most one header line, one bulk
/// string in progress and the aggregates still open, each bounded by ``Limits``; a declared length or count over a
/// limit is refused when its header arrives, before any memory is set aside for it.
///
/// Attributes (`|`) are attached to the value that follows them (``RESPValue/attributed(attributes:value:)``); a
/// push (`>`) is handed out like any value, and the connection tells it from a reply.
///
/// ```swift
/// var parser = RESPParser()
/// let values = try parser.parse(Array("+OK\r\n:42\r\n".utf8))
/// ```
public struct RESPParser: Sendable {
    /// Upper bounds on what one reply may announce.
    public struct Limits: Sendable, Hashable {
        /// The longest bulk string, bulk error or verbatim string in bytes; 64 MiB by default (Redis allows 512).
        public var maxBulkLength: Int
        /// The longest line (type byte and text, without CRLF): simple strings, errors, numbers; 64 KiB by default.
        public var maxLineLength: Int
        /// How deeply aggregates (arrays, maps, sets, pushes, attributes) may nest; 32 by default.
        public var maxDepth: Int
        /// The most elements (or map pairs) one aggregate may announce; 1 Mi by default.
        public var maxAggregateCount: Int

        /// Creates limits; the defaults suit any reply this package asks for.
        public init(
            maxBulkLength: Int = 64 << 20, maxLineLength: Int = 64 << 10, maxDepth: Int = 32,
            maxAggregateCount: Int = 1 << 20
        ) {
            self.maxBulkLength = maxBulkLength
            self.maxLineLength = maxLineLength
            self.maxDepth = maxDepth
            self.maxAggregateCount = maxAggregateCount
        }
    }

    enum BulkKind: Sendable { case string, error, verbatim }
    enum AggregateKind: Sendable { case array, set, push, map, attribute }

    enum Reading: Sendable {
        case header
        case bulk(BulkKind, remaining: Int)
        case bulkEnd(BulkKind, seenCR: Bool)
    }

    struct Frame: Sendable {
        var kind: AggregateKind
        /// Elements still to come (twice the pairs for maps and attributes).
        var expected: Int
        var values: [RESPValue]
        /// Attributes that preceded the aggregate.
        var attributes: [RESPPair]?
    }

    /// The limits in force.
    public let limits: Limits
    var line: [UInt8] = []
    var reading = Reading.header
    var bulk: [UInt8] = []
    var stack: [Frame] = []
    var pendingAttributes: [RESPPair]?
    /// Bytes consumed before the current chunk.
    var consumed = 0
    /// Where the element being read started.
    var itemStart = 0
    var failure: RESPParseError?

    /// Creates a parser.
    ///
    /// - Parameter limits: The bounds on what a reply may announce.
    public init(limits: Limits = Limits()) {
        self.limits = limits
    }

    /// Whether the parser is between top-level values: nothing partial is held.
    public var isIdle: Bool {
        if case .header = reading { return line.isEmpty && stack.isEmpty && pendingAttributes == nil }
        return false
    }

    /// Forgets everything held, for a new connection.
    public mutating func reset() {
        self = RESPParser(limits: limits)
    }

    /// Parses the values of `bytes`, with what earlier chunks left open.
    ///
    /// - Returns: The top-level values completed by this chunk, in order.
    /// - Throws: ``RESPParseError`` at the first violation (values completed before it are lost; use
    ///   ``parse(_:_:)`` to keep them) and again on every later call until ``reset()``.
    public mutating func parse(_ bytes: [UInt8]) throws(RESPParseError) -> [RESPValue] {
        var values: [RESPValue] = []
        var failure: RESPParseError?
        bytes.withUnsafeBytes { raw in
            do throws(RESPParseError) {
                try parse(raw) { values.append($0) }
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
        return values
    }

    /// Parses `chunk`, handing each completed top-level value to `onValue` at once, in order.
    ///
    /// - Throws: ``RESPParseError`` at the first violation, after the values completed before it were handed out;
    ///   again on every later call until ``reset()``.
    public mutating func parse(
        _ chunk: UnsafeRawBufferPointer, _ onValue: (RESPValue) -> Void
    ) throws(RESPParseError) {
        if let failure { throw failure }
        do throws(RESPParseError) {
            try scan(chunk, onValue)
        } catch {
            failure = error
            throw error
        }
        consumed += chunk.count
    }

    private mutating func scan(_ chunk: UnsafeRawBufferPointer, _ onValue: (RESPValue) -> Void) throws(RESPParseError) {
        guard let base = chunk.baseAddress else { return }
        var index = 0
        while index < chunk.count {
            switch reading {
            case .header:
                if line.isEmpty { itemStart = consumed + index }
                guard let found = memchr(base + index, 10, chunk.count - index) else {
                    line.append(contentsOf: UnsafeRawBufferPointer(rebasing: chunk[index...]))
                    index = chunk.count
                    // One byte more than the limit may be the CR of a line that fits.
                    if line.count > limits.maxLineLength + 1 { throw lineTooLong() }
                    continue
                }
                let end = UnsafeRawPointer(found) - UnsafeRawPointer(base)
                if line.isEmpty {
                    try header(UnsafeRawBufferPointer(rebasing: chunk[index..<end]), onValue)
                } else {
                    line.append(contentsOf: UnsafeRawBufferPointer(rebasing: chunk[index..<end]))
                    let held = line
                    line.removeAll(keepingCapacity: true)
                    var failure: RESPParseError?
                    held.withUnsafeBytes { raw in
                        do throws(RESPParseError) {
                            try header(raw, onValue)
                        } catch {
                            failure = error
                        }
                    }
                    if let failure { throw failure }
                }
                index = end + 1
            case .bulk(let kind, let remaining):
                let take = min(remaining, chunk.count - index)
                bulk.append(contentsOf: UnsafeRawBufferPointer(rebasing: chunk[index..<index + take]))
                index += take
                reading = take == remaining ? .bulkEnd(kind, seenCR: false) : .bulk(kind, remaining: remaining - take)
            case .bulkEnd(let kind, let seenCR):
                let byte = chunk[index]
                index += 1
                guard byte == (seenCR ? 10 : 13) else {
                    throw RESPParseError(
                        code: .malformed, message: "a bulk value is not followed by CRLF", offset: itemStart)
                }
                if !seenCR {
                    reading = .bulkEnd(kind, seenCR: true)
                    continue
                }
                reading = .header
                let bytes = bulk
                bulk = []
                try complete(bulkValue(kind, bytes), onValue)
            }
        }
    }

    private func lineTooLong() -> RESPParseError {
        RESPParseError(
            code: .lineTooLong, message: "a line is longer than \(limits.maxLineLength) bytes", offset: itemStart)
    }

    private func bulkValue(_ kind: BulkKind, _ bytes: [UInt8]) throws(RESPParseError) -> RESPValue {
        switch kind {
        case .string:
            return .bulkString(bytes)
        case .error:
            return .bulkError(String(decoding: bytes, as: UTF8.self))
        case .verbatim:
            guard bytes.count >= 4, bytes[3] == UInt8(ascii: ":"), bytes[0..<3].allSatisfy({ $0 > 32 && $0 < 127 })
            else {
                throw RESPParseError(
                    code: .malformed, message: "a verbatim string does not start with a format like txt:",
                    offset: itemStart)
            }
            return .verbatimString(format: String(decoding: bytes[0..<3], as: UTF8.self), text: Array(bytes[4...]))
        }
    }
}
