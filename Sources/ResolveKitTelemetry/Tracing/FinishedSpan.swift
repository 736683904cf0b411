public import ResolveKitCore

/// A span that has ended: everything an exporter sends, immutable.
public struct FinishedSpan: Sendable, Hashable {
    /// The span's own context (trace id, span id, flags, state).
    public var context: SpanContext
    /// The parent's span id; `nil` for a root span.
    public var parentSpanID: SpanID?
    /// Whether the parent came from another process (an incoming `traceparent`).
    public var parentIsRemote: Bool
    /// The name, e.g. `execute_tool read_log_tail`.
    public var name: String
    /// The kind.
    public var kind: SpanKind
    /// When it started, in nanoseconds since the Unix epoch.
    public var startTimeUnixNano: UInt64
    /// When it ended, in nanoseconds since the Unix epoch.
    public var endTimeUnixNano: UInt64
    /// Its attributes, each key once.
    public var attributes: [SpanAttribute]
    /// Attributes beyond the limit, not kept.
    public var droppedAttributesCount: Int
    /// Its events, in order.
    public var events: [SpanEvent]
    /// Events beyond the limit, not kept.
    public var droppedEventsCount: Int
    /// Its links.
    public var links: [SpanLink]
    /// Whether it succeeded.
    public var status: SpanStatus

    /// Creates a finished span.
    public init(
        context: SpanContext, parentSpanID: SpanID?, parentIsRemote: Bool = false, name: String,
        kind: SpanKind = .internal, startTimeUnixNano: UInt64, endTimeUnixNano: UInt64,
        attributes: [SpanAttribute] = [], droppedAttributesCount: Int = 0, events: [SpanEvent] = [],
        droppedEventsCount: Int = 0, links: [SpanLink] = [], status: SpanStatus = .unset
    ) {
        self.context = context
        self.parentSpanID = parentSpanID
        self.parentIsRemote = parentIsRemote
        self.name = name
        self.kind = kind
        self.startTimeUnixNano = startTimeUnixNano
        self.endTimeUnixNano = endTimeUnixNano
        self.attributes = attributes
        self.droppedAttributesCount = droppedAttributesCount
        self.events = events
        self.droppedEventsCount = droppedEventsCount
        self.links = links
        self.status = status
    }

    /// The value of the attribute `key`, if set.
    public func attribute(_ key: String) -> AttributeValue? {
        attributes.first { $0.key == key }?.value
    }
}

/// Receives every sampled span when it ends. Called on the thread that ends the span: it must return at once
/// (queue the span, never wait on I/O).
public protocol SpanProcessor: Sendable {
    /// Takes a span that ended (given, not lent: a processor that keeps it keeps it without a copy).
    func onEnd(_ span: consuming FinishedSpan)

    /// Takes a span that ended and is described later; by default it is described at once and taken as one that
    /// ended. A processor that exports later (``BatchSpanProcessor``) keeps it as is and describes it then.
    func onEnd(_ span: consuming DeferredSpan)
}

extension SpanProcessor {
    /// Describes the span and takes it as one that ended.
    public func onEnd(_ span: consuming DeferredSpan) {
        onEnd(span.finished())
    }
}
