/// A span that ended and is described only when it is read: its ids and times are fixed, its name, attributes and
/// status are put together by ``finished()``. The tools core and the backend client end their spans this way, so a
/// call or a request pays for a timestamp, a closure and a queue slot, and ``BatchSpanProcessor`` describes the span
/// just before it is exported, on a thread at the kernel's idle priority.
public struct DeferredSpan: Sendable {
    /// The span as it began.
    public let span: PendingSpan
    /// When it ended, in nanoseconds since the Unix epoch.
    public let endTimeUnixNano: UInt64
    private let maxAttributes: Int
    private let describe: @Sendable () -> SpanDescription

    /// A span `describe` will describe, ended at `endTime`, keeping at most `maxAttributes` attributes.
    package init(
        _ span: PendingSpan, endTime: UInt64, maxAttributes: Int,
        describe: @escaping @Sendable () -> SpanDescription
    ) {
        self.span = span
        endTimeUnixNano = max(endTime, span.startTimeUnixNano)
        self.maxAttributes = maxAttributes
        self.describe = describe
    }

    /// The span, described: what an exporter sends.
    public func finished() -> FinishedSpan {
        let description = describe()
        let (attributes, dropped) = Tracer.kept(description.attributes, limit: maxAttributes)
        return FinishedSpan(
            context: span.context, parentSpanID: span.parentSpanID, parentIsRemote: span.parentIsRemote,
            name: description.name, kind: description.kind, startTimeUnixNano: span.startTimeUnixNano,
            endTimeUnixNano: endTimeUnixNano, attributes: attributes, droppedAttributesCount: dropped,
            status: description.status)
    }
}

/// What a span's end says about it.
package struct SpanDescription: Sendable {
    package var name: String
    package var kind: SpanKind
    /// Its attributes, each key once (within the limit they are kept as given).
    package var attributes: [SpanAttribute]
    package var status: SpanStatus

    package init(
        _ name: String, kind: SpanKind = .internal, attributes: [SpanAttribute], status: SpanStatus = .unset
    ) {
        self.name = name
        self.kind = kind
        self.attributes = attributes
        self.status = status
    }
}
