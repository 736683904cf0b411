package import ResolveKitTelemetry

/// What a ``ToolCallRunner`` records about each call, whichever front end it came from: the catalog's metrics
/// (calls by function, outcome and who decided; running time; approval wait; pending approvals; running calls) and
/// the call's spans (`execute_tool {function}`, with `approval {function}` and `run {function}` under it). Either
/// may be off; with both off a call costs nothing more.
package struct ToolCallTelemetry: Sendable {
    /// Where calls are counted; `nil` counts nothing.
    package let metrics: ResolveKitMetrics?
    /// Where calls' spans start; `nil` starts none (a function still sees the context its caller gave).
    package let tracer: Tracer?
    /// Where span timestamps come from.
    package let time: TelemetryTime

    /// Records through `metrics` and `tracer`.
    package init(metrics: ResolveKitMetrics?, tracer: Tracer?, time: TelemetryTime = .system) {
        self.metrics = metrics
        self.tracer = tracer
        self.time = time
    }

    /// Records nothing.
    package static let off = ToolCallTelemetry(metrics: nil, tracer: nil)

    /// Whether anything is recorded.
    package var isOn: Bool { metrics != nil || tracer != nil }
}

/// Where one batch's calls sit in a trace: what each call's span descends from, and who learns the span.
package struct ToolCallTrace: Sendable {
    /// The parent of each call's span: its turn's span, an MCP request's span, a context a host passed in.
    package var parent: @Sendable (PendingToolCall) -> SpanParent
    /// Told each call's end, just before it is reported, with the context it ran under: its span's, or without a
    /// span its parent's (`nil` when it has neither); e.g. to time its result's delivery and parent it. Told then,
    /// not when the span starts, so a call's start costs no more than it must.
    package var finished: @Sendable (ToolCallID, SpanContext?) -> Void

    /// A trace with these rules.
    package init(
        parent: @escaping @Sendable (PendingToolCall) -> SpanParent,
        finished: @escaping @Sendable (ToolCallID, SpanContext?) -> Void = { _, _ in }
    ) {
        self.parent = parent
        self.finished = finished
    }

    /// Every call starts a trace of its own.
    package static let none = ToolCallTrace(parent: { _ in .root })
}

extension ResolveKitMetrics.Decider {
    /// Who decided, as the `decided_by` label says it: a decision an approver did not attribute is the host's
    /// own code's.
    init(_ decider: ToolCallDecision.Decider?) {
        switch decider {
        case .person: self = .person
        case .policy: self = .policy
        case .remembered: self = .remembered
        case .timeout: self = .timeout
        case .automatic: self = .automatic
        case .host, nil: self = .host
        }
    }
}

extension ResolveKitMetrics.ToolOutcome {
    /// How a call ended, as the `outcome` label says it: a decline nobody made in time is a `timeout`, a call
    /// stopped before it ran (its turn or session ended, the service drained) is `refused`, one cancelled while it
    /// ran is an `error`.
    init(_ outcome: ToolCallOutcome, decidedBy decider: ResolveKitMetrics.Decider, ran: Bool) {
        guard case .failure(let error) = outcome else {
            self = .success
            return
        }
        switch error.code {
        case .declined: self = decider == .timeout ? .timeout : .declined
        case .timedOut: self = .timeout
        case .unknownFunction, .notAllowed: self = .refused
        case .cancelled: self = ran ? .error : .refused
        default: self = .error
        }
    }
}
