public import ResolveKitCore
import Synchronization

/// One operation of a trace, from ``Tracer/startSpan(_:kind:parent:attributes:links:startTime:)`` to ``end()``.
///
/// A span not sampled is not recording: its setters do nothing and it is never exported, but its ``context``
/// still propagates, so a callee sees the trace. Ending twice ends once. A span is safe to use from any task.
public final class Span: Sendable {
    private struct State {
        var name: String
        var attributes: [SpanAttribute]
        var droppedAttributes = 0
        var events: [SpanEvent] = []
        var droppedEvents = 0
        var links: [SpanLink]
        var status = SpanStatus.unset
        var ended = false
    }

    /// The span's context: what children and callees name as their parent.
    public let context: SpanContext
    /// The parent's span id; `nil` for a root span.
    public let parentSpanID: SpanID?
    /// Whether the parent came from another process.
    public let parentIsRemote: Bool
    /// The kind.
    public let kind: SpanKind
    /// When it started, in nanoseconds since the Unix epoch.
    public let startTimeUnixNano: UInt64
    /// Whether the span records and will be exported.
    public let isRecording: Bool
    private let state: Mutex<State>
    private let processor: (any SpanProcessor)?
    private let time: TelemetryTime
    private let limits: SpanLimits

    init(
        context: SpanContext, parent: SpanContext?, name: String, kind: SpanKind, startTime: UInt64,
        attributes: [SpanAttribute], links: [SpanLink], isRecording: Bool, processor: (any SpanProcessor)?,
        time: TelemetryTime, limits: SpanLimits
    ) {
        self.context = context
        self.parentSpanID = parent?.spanID
        self.parentIsRemote = parent?.isRemote ?? false
        self.kind = kind
        self.startTimeUnixNano = startTime
        self.isRecording = isRecording
        self.processor = processor
        self.time = time
        self.limits = limits
        var initial = State(name: name, attributes: [], links: Array(links.prefix(limits.maxLinks)))
        if isRecording { Self.merge(attributes, into: &initial, limits: limits) }
        state = Mutex(initial)
    }

    /// Sets an attribute, replacing one with the same key; beyond the limit (128) it is counted as dropped.
    public func setAttribute(_ key: String, _ value: AttributeValue) {
        guard isRecording else { return }
        state.withLock { state in
            guard !state.ended else { return }
            Self.merge(CollectionOfOne(SpanAttribute(key, value)), into: &state, limits: limits)
        }
    }

    /// Sets several attributes.
    public func setAttributes(_ attributes: [SpanAttribute]) {
        guard isRecording else { return }
        state.withLock { state in
            guard !state.ended else { return }
            Self.merge(attributes, into: &state, limits: limits)
        }
    }

    /// Records an event now; beyond the limit (128) it is counted as dropped.
    public func addEvent(_ name: String, attributes: [SpanAttribute] = []) {
        guard isRecording else { return }
        let event = SpanEvent(name: name, timeUnixNano: time.now(), attributes: attributes)
        state.withLock { state in
            guard !state.ended else { return }
            if state.events.count < limits.maxEvents {
                state.events.append(event)
            } else {
                state.droppedEvents += 1
            }
        }
    }

    /// Sets the status; once `ok`, it stays `ok`, as OpenTelemetry says.
    public func setStatus(_ status: SpanStatus) {
        guard isRecording else { return }
        state.withLock { state in
            guard !state.ended, state.status != .ok else { return }
            if status == .unset { return }
            state.status = status
        }
    }

    /// Marks the span failed: `error.type` (a bounded class of error, such as `timeout` or an HTTP status) and an
    /// error status with `description`.
    public func recordError(type: String, description: String? = nil) {
        setAttribute(SemanticAttributes.errorType, .string(type))
        setStatus(.error(description: description ?? type))
    }

    /// Renames the span, e.g. once the operation's target is known.
    public func updateName(_ name: String) {
        guard isRecording else { return }
        state.withLock { state in
            guard !state.ended else { return }
            state.name = name
        }
    }

    /// The span's name now.
    public var name: String { state.withLock { $0.name } }

    /// Ends the span now and hands it to the processor; later calls do nothing.
    public func end() {
        end(atUnixNano: time.now())
    }

    /// Ends the span at `time` (nanoseconds since the Unix epoch, not before its start).
    public func end(atUnixNano endTime: UInt64) {
        guard isRecording else { return }
        let finished = state.withLock { state -> FinishedSpan? in
            guard !state.ended else { return nil }
            state.ended = true
            return FinishedSpan(
                context: context, parentSpanID: parentSpanID, parentIsRemote: parentIsRemote, name: state.name,
                kind: kind, startTimeUnixNano: startTimeUnixNano, endTimeUnixNano: max(endTime, startTimeUnixNano),
                attributes: state.attributes, droppedAttributesCount: state.droppedAttributes, events: state.events,
                droppedEventsCount: state.droppedEvents, links: state.links, status: state.status)
        }
        if let finished { processor?.onEnd(finished) }
    }

    private static func merge(_ attributes: some Sequence<SpanAttribute>, into state: inout State, limits: SpanLimits) {
        for attribute in attributes {
            if let index = state.attributes.firstIndex(where: { $0.key == attribute.key }) {
                state.attributes[index].value = attribute.value
            } else if state.attributes.count < limits.maxAttributes {
                state.attributes.append(attribute)
            } else {
                state.droppedAttributes += 1
            }
        }
    }
}

/// How much one span keeps (OpenTelemetry's defaults): beyond them attributes and events are counted, not kept.
public struct SpanLimits: Sendable, Hashable {
    /// Attributes per span (`OTEL_SPAN_ATTRIBUTE_COUNT_LIMIT`).
    public var maxAttributes: Int
    /// Events per span (`OTEL_SPAN_EVENT_COUNT_LIMIT`).
    public var maxEvents: Int
    /// Links per span (`OTEL_SPAN_LINK_COUNT_LIMIT`).
    public var maxLinks: Int

    /// Creates limits; 128 of each by default.
    public init(maxAttributes: Int = 128, maxEvents: Int = 128, maxLinks: Int = 128) {
        self.maxAttributes = maxAttributes
        self.maxEvents = maxEvents
        self.maxLinks = maxLinks
    }
}
