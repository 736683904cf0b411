/// What a function invocation knows about where it comes from.
public struct ResolveKitFunctionContext: Sendable {
    /// The backend session the call belongs to.
    public var sessionID: String
    /// The client `request_id` of the user turn that led to the call.
    public var requestID: String
    /// The server turn id, when known.
    public var turnID: String?
    /// The call id the result will answer.
    public var callID: ToolCallID?
    /// When the backend stops waiting for this call (approval time already spent); `nil` when unknown.
    /// Long-running functions should finish or give up before it; the runtime cancels the task at this instant.
    public var deadline: ContinuousClock.Instant?
    /// Where the function may log; silent unless the host configured a sink.
    public var logger: ResolveKitLogger
    /// What the host provides to functions: the configuration's values, with the session's laid over them.
    public var dependencies: ResolveKitDependencies
    /// The trace context of this call's run (its `run {function}` span, or the caller's context when nothing is
    /// traced): pass ``SpanContext/traceparent`` (and ``SpanContext/tracestate``) on to what the function calls, so
    /// its work joins the same trace. `nil` when the call is not part of a trace.
    public var spanContext: SpanContext?
    /// Where ``reportProgress(_:of:message:)`` goes: an MCP client that asked for progress; nowhere by default.
    package var progressHandler: @Sendable (Double, Double?, String?) -> Void = { _, _, _ in }

    /// Creates a context; the seed SDK's `init(sessionID:requestID:)` form still works.
    public init(
        sessionID: String,
        requestID: String,
        turnID: String? = nil,
        callID: ToolCallID? = nil,
        deadline: ContinuousClock.Instant? = nil,
        logger: ResolveKitLogger = .disabled,
        dependencies: ResolveKitDependencies = ResolveKitDependencies(),
        spanContext: SpanContext? = nil
    ) {
        self.sessionID = sessionID
        self.requestID = requestID
        self.turnID = turnID
        self.callID = callID
        self.deadline = deadline
        self.logger = logger
        self.dependencies = dependencies
        self.spanContext = spanContext
    }

    /// Reports how far a long call has come, e.g. `reportProgress(3, of: 10, message: "3 of 10 files")`; the value
    /// only grows. An MCP client that asked for progress receives it; otherwise it goes nowhere.
    public func reportProgress(_ completed: Double, of total: Double? = nil, message: String? = nil) {
        progressHandler(completed, total, message)
    }

    /// The host's value for `key`, or the key's default: `context[AllowedRoots.self]`.
    public subscript<K: ResolveKitDependencies.Key>(key: K.Type) -> K.Value {
        dependencies[key]
    }
}
