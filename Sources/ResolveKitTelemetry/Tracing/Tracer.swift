public import ResolveKitCore

/// What a new span's parent is.
public enum SpanParent: Sendable {
    /// None: the span starts a new trace.
    case root
    /// A span of this process.
    case span(Span)
    /// A context from elsewhere: a host's `traceparent` passed into `ask`, an MCP client's `_meta.traceparent`.
    case context(SpanContext)

    /// The parent a request's trace headers name: their context when `traceparent` is valid, otherwise a new
    /// trace, as W3C Trace Context says a receiver does with a malformed header.
    public static func incoming(traceparent: String?, tracestate: String? = nil) -> SpanParent {
        guard let traceparent, let context = try? SpanContext(traceparent: traceparent, tracestate: tracestate) else {
            return .root
        }
        return .context(context)
    }

    /// The context a child descends from: the span's, or the valid context given; `nil` for a root.
    public var context: SpanContext? {
        switch self {
        case .root: nil
        case .span(let span): span.context
        case .context(let context): context.isValid ? context : nil
        }
    }
}

/// Starts spans: draws their ids, asks the sampler whether they record, and hands the ones that end to the
/// processor.
///
/// ```swift
/// let turn = tracer.startSpan("invoke_agent", kind: .client, parent: .incoming(traceparent: header))
/// let call = tracer.startSpan("execute_tool read_log_tail", parent: .span(turn))
/// call.end()
/// turn.end()
/// ```
public struct Tracer: Sendable {
    /// What a tracer is made of, behind one reference: the hot path copies tracers (a call's, a request's), and a
    /// copy is then one retain.
    private final class Parts: Sendable {
        let sampler: Sampler
        let processor: (any SpanProcessor)?
        let ids: IDGenerator
        let time: TelemetryTime
        let limits: SpanLimits

        init(
            sampler: Sampler, processor: (any SpanProcessor)?, ids: IDGenerator, time: TelemetryTime,
            limits: SpanLimits
        ) {
            self.sampler = sampler
            self.processor = processor
            self.ids = ids
            self.time = time
            self.limits = limits
        }
    }

    private let parts: Parts

    /// The sampler.
    public var sampler: Sampler { parts.sampler }
    var processor: (any SpanProcessor)? { parts.processor }
    var ids: IDGenerator { parts.ids }
    var time: TelemetryTime { parts.time }
    var limits: SpanLimits { parts.limits }

    /// Creates a tracer.
    /// - Parameters:
    ///   - sampler: Which traces record; by default those whose parent did, and every new trace.
    ///   - processor: Where ended spans go (a ``BatchSpanProcessor``); `nil` records nothing.
    ///   - ids: Where ids come from.
    ///   - time: Where timestamps come from.
    ///   - limits: How many attributes, events and links a span keeps.
    public init(
        sampler: Sampler = .parentBased(root: .alwaysOn), processor: (any SpanProcessor)?, ids: IDGenerator = .random,
        time: TelemetryTime = .system, limits: SpanLimits = SpanLimits()
    ) {
        parts = Parts(sampler: sampler, processor: processor, ids: ids, time: time, limits: limits)
    }

    /// A tracer whose spans never record but still carry their context (`OTEL_SDK_DISABLED`, no exporter).
    public static let disabled = Tracer(sampler: .alwaysOff, processor: nil)

    /// Starts a span.
    /// - Parameters:
    ///   - name: A low-cardinality name, e.g. `execute_tool read_log_tail`.
    ///   - kind: What the span describes.
    ///   - parent: Its parent; a root span starts a new trace.
    ///   - attributes: Attributes known at the start (samplers may read them).
    ///   - links: Links to other spans.
    ///   - startTime: When it started, in nanoseconds since the Unix epoch; now by default.
    public func startSpan(
        _ name: String, kind: SpanKind = .internal, parent: SpanParent = .root, attributes: [SpanAttribute] = [],
        links: [SpanLink] = [], startTime: UInt64? = nil
    ) -> Span {
        let parentContext = parent.context
        let (context, sampled) = newContext(under: parentContext)
        return Span(
            context: context, parent: parentContext, name: name, kind: kind, startTime: startTime ?? time.now(),
            attributes: attributes, links: links, isRecording: sampled, processor: processor, time: time,
            limits: limits)
    }
}

extension Tracer {
    /// A new span's context under `parentContext` (its trace, or a new one), and whether the sampler records it.
    func newContext(under parentContext: SpanContext?) -> (context: SpanContext, sampled: Bool) {
        let traceID = parentContext?.traceID ?? ids.traceID()
        let sampled = processor != nil && sampler.shouldSample(traceID: traceID, parent: parentContext)
        // Without a processor nothing records here, but a callee still learns whether the caller sampled.
        let flags: TraceFlags = processor == nil ? parentContext?.flags ?? [] : sampled ? .sampled : []
        let context = SpanContext(
            traceID: traceID, spanID: ids.spanID(), flags: flags,
            traceState: parentContext?.traceState ?? TraceState(), isRemote: false)
        return (context, sampled)
    }
}
