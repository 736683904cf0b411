extension SpanContext {
    /// `trace_id` and `span_id` as log details, so a person reading a log line can open its trace.
    public var logMetadata: [String: String] {
        ["trace_id": traceID.hexString, "span_id": spanID.hexString]
    }
}
