/// Where a span sits in a distributed trace: its trace, its own id, the sampling flag and vendor state, as W3C
/// Trace Context propagates them in `traceparent` and `tracestate`.
///
/// A function reads its call's context to pass the trace on downstream:
///
/// ```swift
/// if let trace = context.spanContext {
///     request.headers["traceparent"] = trace.traceparent
///     request.headers["tracestate"] = trace.tracestate
/// }
/// ```
public struct SpanContext: Sendable, Hashable, CustomStringConvertible {
    /// The trace the span belongs to.
    public var traceID: TraceID
    /// The span's own id: the `parent-id` a callee's spans will name.
    public var spanID: SpanID
    /// The trace flags; ``TraceFlags/sampled`` when the trace is being recorded.
    public var flags: TraceFlags
    /// Vendor-specific state carried along the trace.
    public var traceState: TraceState
    /// Whether the context came from another process (a parsed `traceparent`) rather than a span of this one.
    public var isRemote: Bool

    /// Creates a context.
    public init(
        traceID: TraceID, spanID: SpanID, flags: TraceFlags = .sampled, traceState: TraceState = TraceState(),
        isRemote: Bool = false
    ) {
        self.traceID = traceID
        self.spanID = spanID
        self.flags = flags
        self.traceState = traceState
        self.isRemote = isRemote
    }

    /// Whether the trace is being recorded.
    public var isSampled: Bool { flags.contains(.sampled) }

    /// Whether both ids are valid (not all zero).
    public var isValid: Bool { traceID.isValid && spanID.isValid }

    /// The `traceparent` header value, version 00: `00-<32 hex trace id>-<16 hex span id>-<2 hex flags>`.
    public var traceparent: String {
        // Built in place: every backend request of a traced turn carries one.
        String(unsafeUninitializedCapacity: 55) { buffer in
            buffer[0] = UInt8(ascii: "0")
            buffer[1] = UInt8(ascii: "0")
            buffer[2] = UInt8(ascii: "-")
            var end = Hex.write(traceID.high, into: buffer, at: 3)
            end = Hex.write(traceID.low, into: buffer, at: end)
            buffer[end] = UInt8(ascii: "-")
            end = Hex.write(spanID.rawValue, into: buffer, at: end + 1)
            buffer[end] = UInt8(ascii: "-")
            return Hex.write(UInt64(flags.rawValue), digits: 2, into: buffer, at: end + 1)
        }
    }

    /// The `tracestate` header value, or `nil` when there is no state to send (the header is then left out).
    public var tracestate: String? { traceState.isEmpty ? nil : traceState.headerValue }

    /// The `traceparent` value.
    public var description: String { traceparent }
}
