extension SpanContext {
    /// Reads the `traceparent` and `tracestate` headers of an incoming request or message, as W3C Trace Context
    /// level 1 says: version `00` is exactly 55 characters; a later version (not `ff`) is read by its first 55
    /// characters when the 56th is `-` or absent; ids are lower-case hex and not all zero. The result is remote.
    ///
    /// A `tracestate` that breaks its format is dropped and the trace continues without it, as the specification
    /// asks; read it with ``TraceState/init(parsing:)`` to see why.
    ///
    /// - Parameters:
    ///   - traceparent: The `traceparent` value; spaces and tabs around it are ignored.
    ///   - tracestate: The `tracestate` value (several header lines joined with `,`), if any.
    /// - Throws: ``TraceContextError`` naming the first byte that breaks the format.
    public init(traceparent: String, tracestate: String? = nil) throws(TraceContextError) {
        let (traceID, spanID, flags) = try Self.parseTraceparent(Array(traceparent.utf8))
        let state = tracestate.flatMap { try? TraceState(parsing: $0) } ?? TraceState()
        self.init(traceID: traceID, spanID: spanID, flags: flags, traceState: state, isRemote: true)
    }

    static func parseTraceparent(_ raw: [UInt8]) throws(TraceContextError) -> (TraceID, SpanID, TraceFlags) {
        let value = raw[...].trimmingOptionalWhitespace()
        guard value.count >= 55 else {
            throw invalid("it is \(value.count) bytes long; version 00 is exactly 55 (00-<32 hex>-<16 hex>-<2 hex>)")
        }
        let base = value.startIndex
        func byte(_ offset: Int) -> UInt8 { value[base + offset] }

        try checkHex(value, base, 0..<2, what: "the version")
        if byte(0) == UInt8(ascii: "f"), byte(1) == UInt8(ascii: "f") {
            throw TraceContextError(
                code: .unsupportedVersion, message: "version ff is forbidden by W3C Trace Context", offset: 0)
        }
        let isVersionZero = byte(0) == UInt8(ascii: "0") && byte(1) == UInt8(ascii: "0")
        if isVersionZero, value.count != 55 {
            throw invalid("version 00 is exactly 55 bytes, this one is \(value.count)", offset: 55)
        }
        if !isVersionZero, value.count > 55, byte(55) != UInt8(ascii: "-") {
            throw invalid("a later version may only add fields after a '-' at byte 55", offset: 55)
        }
        for offset in [2, 35, 52] where byte(offset) != UInt8(ascii: "-") {
            throw invalid("expected '-' between the fields", offset: offset)
        }
        try checkHex(value, base, 3..<35, what: "the trace id")
        try checkHex(value, base, 36..<52, what: "the parent id")
        try checkHex(value, base, 53..<55, what: "the flags")

        let traceID = TraceID(
            high: Hex.uint64(value[(base + 3)..<(base + 19)])!, low: Hex.uint64(value[(base + 19)..<(base + 35)])!)
        guard traceID.isValid else { throw invalid("the trace id is all zero, which is invalid", offset: 3) }
        let spanID = SpanID(rawValue: Hex.uint64(value[(base + 36)..<(base + 52)])!)
        guard spanID.isValid else { throw invalid("the parent id is all zero, which is invalid", offset: 36) }
        let flags = TraceFlags(rawValue: UInt8(Hex.uint64(value[(base + 53)..<(base + 55)])!))
        return (traceID, spanID, flags)
    }

    private static func checkHex(
        _ value: ArraySlice<UInt8>, _ base: Int, _ range: Range<Int>, what: String
    ) throws(TraceContextError) {
        for offset in range where Hex.value(value[base + offset]) == nil {
            throw invalid("\(what) must be lower-case hex digits (0-9, a-f)", offset: offset)
        }
    }

    private static func invalid(_ message: String, offset: Int? = nil) -> TraceContextError {
        TraceContextError(code: .invalidTraceparent, message: "traceparent: " + message, offset: offset)
    }
}

extension ArraySlice where Element == UInt8 {
    /// The bytes without leading and trailing spaces and tabs (HTTP's optional whitespace).
    func trimmingOptionalWhitespace() -> ArraySlice<UInt8> {
        let isBlank = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        guard let first = firstIndex(where: { !isBlank($0) }), let last = lastIndex(where: { !isBlank($0) }) else {
            return []
        }
        return self[first...last]
    }
}
