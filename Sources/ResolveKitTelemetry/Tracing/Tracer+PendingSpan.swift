public import ResolveKitCore

/// A span begun without an object: its context and start are fixed when it begins, its name, attributes and status
/// are given once, when it ends (``Tracer/end(_:name:kind:attributes:status:endTime:)``).
///
/// For hot paths that learn everything about an operation only when it is over (a tool call, a request): beginning
/// costs two ids and a clock reading, and no allocation; a span that is not sampled records nothing at its end.
/// Ending twice records twice: the owner ends it once.
public struct PendingSpan: Sendable, Hashable {
    /// The span's context: what children and callees name as their parent.
    public let context: SpanContext
    /// The parent's span id; `nil` for a root span.
    public let parentSpanID: SpanID?
    /// Whether the parent came from another process.
    public let parentIsRemote: Bool
    /// When it started, in nanoseconds since the Unix epoch.
    public let startTimeUnixNano: UInt64
    /// Whether it will be recorded when it ends.
    public let isRecording: Bool

    /// The same span, started at `startTime` instead: its ids are given out before the work starts (a function
    /// learns its span's context before it runs), its start is known only once the work is over.
    public func dated(from startTime: UInt64) -> PendingSpan {
        PendingSpan(
            context: context, parentSpanID: parentSpanID, parentIsRemote: parentIsRemote, startTimeUnixNano: startTime,
            isRecording: isRecording)
    }
}

extension Tracer {
    /// Begins a span under `parent`, sampled as ``startSpan(_:kind:parent:attributes:links:startTime:)`` samples.
    /// - Parameter startTime: When it started, in nanoseconds since the Unix epoch; now by default.
    public func begin(parent: SpanParent, startTime: UInt64? = nil) -> PendingSpan {
        let parentContext = parent.context
        let (context, sampled) = newContext(under: parentContext)
        return PendingSpan(
            context: context, parentSpanID: parentContext?.spanID, parentIsRemote: parentContext?.isRemote ?? false,
            startTimeUnixNano: startTime ?? time.now(), isRecording: sampled)
    }

    /// Ends a span begun with ``begin(parent:startTime:)``: hands it, named and described, to the processor when it
    /// is sampled. Attributes beyond the limit are counted as dropped; a later attribute with a key already given
    /// replaces it.
    /// - Parameter endTime: When it ended, in nanoseconds since the Unix epoch; now by default.
    public func end(
        _ span: PendingSpan, name: String, kind: SpanKind = .internal, attributes: [SpanAttribute] = [],
        status: SpanStatus = .unset, endTime: UInt64? = nil
    ) {
        guard span.isRecording, let processor else { return }
        let (kept, dropped) = Self.kept(attributes, limit: limits.maxAttributes, distinct: false)
        processor.onEnd(
            FinishedSpan(
                context: span.context, parentSpanID: span.parentSpanID, parentIsRemote: span.parentIsRemote,
                name: name, kind: kind, startTimeUnixNano: span.startTimeUnixNano,
                endTimeUnixNano: max(endTime ?? time.now(), span.startTimeUnixNano), attributes: kept,
                droppedAttributesCount: dropped, status: status))
    }

    /// Ends a span now (or at `endTime`) and leaves its description to later: `describe` runs when the span is
    /// read, on the export loop of a ``BatchSpanProcessor``, so the caller's path pays for no name or attribute.
    package func end(
        _ span: PendingSpan, endTime: UInt64? = nil, describedBy describe: @escaping @Sendable () -> SpanDescription
    ) {
        guard span.isRecording, let processor else { return }
        processor.onEnd(
            DeferredSpan(
                span, endTime: endTime ?? time.now(), maxAttributes: limits.maxAttributes, describe: describe))
    }

    /// The attributes a span keeps under `limit`, and how many it drops. With `distinct` keys (as the GenAI ends
    /// build them) a list within the limit is kept as given, without the copy that checks for repeated keys.
    static func kept(
        _ attributes: [SpanAttribute], limit: Int, distinct: Bool = true
    ) -> (kept: [SpanAttribute], dropped: Int) {
        if distinct, attributes.count <= limit { return (attributes, 0) }
        var kept: [SpanAttribute] = []
        kept.reserveCapacity(min(attributes.count, limit))
        var dropped = 0
        for attribute in attributes {
            if let index = kept.firstIndex(where: { $0.key == attribute.key }) {
                kept[index].value = attribute.value
            } else if kept.count < limit {
                kept.append(attribute)
            } else {
                dropped += 1
            }
        }
        return (kept, dropped)
    }
}
