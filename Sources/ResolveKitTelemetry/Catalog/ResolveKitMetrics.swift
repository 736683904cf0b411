public import ResolveKitCore

/// Every metric the runtime, the tools core and the MCP server record, with one method per thing they observe.
///
/// Create one per runtime or host over its ``MetricsRegistry``, with the names of the functions it registered:
/// those are the values of the `function` label, and any other name is counted as `other`. Every method is cheap
/// (a few relaxed atomic operations and, for a function or event type, one hash lookup), takes no lock and never
/// allocates, so it can be called on the hot path and from any thread.
///
/// One call's life, as the tools core reports it:
///
/// ```swift
/// metrics.approvalRequested()
/// metrics.approvalDecided(by: .policy, wait: .milliseconds(3))
/// metrics.toolCallStarted()
/// metrics.toolCallFinished(
///     function: "read_log_tail", outcome: .success, decidedBy: .policy, duration: .milliseconds(40))
/// metrics.resultDelivered(latency: .milliseconds(2))
/// ```
public final class ResolveKitMetrics: Sendable {
    /// The registry the metrics are in.
    public let registry: MetricsRegistry

    typealias Function = ResolvedSetLabel
    private let function: SetLabel
    private let toolCalls: Counter<Function, EnumLabel<ToolOutcome>, EnumLabel<Decider>>
    private let toolExecution: Histogram<Function>
    private let toolsRunning: Gauge<>
    private let approvalWait: Histogram<EnumLabel<Decider>>
    private let approvalsPending: Gauge<>
    private let deliveryLatency: Histogram<>
    private let deliveryRetries: Counter<EnumLabel<RetryReason>>
    private let deliveries: Counter<EnumLabel<DeliveryOutcome>>
    private let turns: Counter<EnumLabel<TurnEnding>>
    private let turnDuration: Histogram<EnumLabel<TurnEnding>>
    private let asksQueued: Gauge<>
    private let tokenUsage: Histogram<EnumLabel<TokenType>>
    private let operationDuration: Histogram<EnumLabel<Operation>, EnumLabel<OperationError>>
    private let sessionsOpen: Gauge<>
    private let streamsConnected: Gauge<>
    private let reconnects: Counter<EnumLabel<ReconnectReason>>
    private let events: Counter<SetLabel>
    private let journal: Gauge<>
    private let replicaKeys: Counter<EnumLabel<ReplicaKeyEvent>>
    private let mcpDuration: Histogram<SetLabel, EnumLabel<MCPOutcome>>

    /// Registers the catalog's families in `registry`.
    /// - Parameters:
    ///   - registry: The runtime's or host's registry.
    ///   - functionNames: The registered functions: the values of the `function` label.
    /// - Throws: ``TelemetryError`` when the registry already holds one of the names, or a function name is
    ///   `other` or empty.
    public init(registry: MetricsRegistry, functionNames: some Sequence<String>) throws(TelemetryError) {
        self.registry = registry
        function = SetLabel("function", attributeKey: "gen_ai.tool.name", values: functionNames)
        let decider = EnumLabel("decided_by", of: Decider.self)
        toolCalls = try registry.counter(
            Descriptors.toolCalls, labels: function.resolved, EnumLabel("outcome", of: ToolOutcome.self), decider)
        toolExecution = try registry.histogram(
            Descriptors.toolExecution, buckets: Buckets.execution, labels: function.resolved)
        toolsRunning = try registry.gauge(Descriptors.toolsRunning)
        approvalWait = try registry.histogram(Descriptors.approvalWait, buckets: Buckets.approval, labels: decider)
        approvalsPending = try registry.gauge(Descriptors.approvalsPending)
        deliveryLatency = try registry.histogram(Descriptors.deliveryLatency, buckets: Buckets.delivery)
        deliveryRetries = try registry.counter(
            Descriptors.deliveryRetries, labels: EnumLabel("reason", of: RetryReason.self))
        deliveries = try registry.counter(
            Descriptors.deliveries, labels: EnumLabel("outcome", of: DeliveryOutcome.self))
        let ending = EnumLabel("ending", of: TurnEnding.self)
        turns = try registry.counter(Descriptors.turns, labels: ending)
        turnDuration = try registry.histogram(Descriptors.turnDuration, buckets: Buckets.turn, labels: ending)
        asksQueued = try registry.gauge(Descriptors.asksQueued)
        tokenUsage = try registry.histogram(
            Descriptors.tokenUsage, buckets: Buckets.tokens,
            labels: EnumLabel("gen_ai_token_type", attributeKey: "gen_ai.token.type", of: TokenType.self))
        operationDuration = try registry.histogram(
            Descriptors.operationDuration, buckets: Buckets.genAIDuration,
            labels: EnumLabel("gen_ai_operation_name", attributeKey: "gen_ai.operation.name", of: Operation.self),
            EnumLabel("error_type", attributeKey: "error.type", of: OperationError.self))
        sessionsOpen = try registry.gauge(Descriptors.sessionsOpen)
        streamsConnected = try registry.gauge(Descriptors.streamsConnected)
        reconnects = try registry.counter(Descriptors.reconnects, labels: EnumLabel("reason", of: ReconnectReason.self))
        events = try registry.counter(Descriptors.events, labels: SetLabel("type", values: Self.eventTypes))
        journal = try registry.gauge(Descriptors.journal)
        replicaKeys = try registry.counter(
            Descriptors.replicaKeys, labels: EnumLabel("event", of: ReplicaKeyEvent.self))
        mcpDuration = try registry.histogram(
            Descriptors.mcpDuration, buckets: Buckets.mcp,
            labels: SetLabel("mcp_method_name", attributeKey: "mcp.method.name", values: Self.mcpMethods),
            EnumLabel("error_type", attributeKey: "error.type", of: MCPOutcome.self))
    }

    // MARK: Tool calls

    /// A call's function starts running.
    public func toolCallStarted() {
        toolsRunning.add(1, series: SeriesIndex.unlabelled.value)
    }

    /// A call ended, whatever happened to it.
    /// - Parameters:
    ///   - function: The function's name (`other` unless registered).
    ///   - outcome: How the call ended.
    ///   - decidedBy: Who or what decided it.
    ///   - duration: How long the function ran, or `nil` when it never started; a call with a duration must have
    ///     been reported by ``toolCallStarted()``.
    public func toolCallFinished(function name: String, outcome: ToolOutcome, decidedBy: Decider, duration: Duration?) {
        let slot = function.resolve(name).index
        let (functions, outcomes, deciders) = toolCalls.labels
        toolCalls.increment(
            series: SeriesIndex.unlabelled.then(slot, of: functions.cardinality).then(outcome, of: outcomes)
                .then(decidedBy, of: deciders).value)
        guard let duration else { return }
        toolsRunning.add(-1, series: SeriesIndex.unlabelled.value)
        toolExecution.observe(duration, series: slot)
        let (operations, errors) = operationDuration.labels
        operationDuration.observe(
            duration,
            series: SeriesIndex.unlabelled.then(.executeTool, of: operations).then(OperationError(outcome), of: errors)
                .value)
    }

    /// A call waits for a decision.
    public func approvalRequested() {
        approvalsPending.add(1, series: SeriesIndex.unlabelled.value)
    }

    /// A waiting call was decided (a timeout counts as decided by `timeout`).
    public func approvalDecided(by decider: Decider, wait: Duration) {
        approvalsPending.add(-1, series: SeriesIndex.unlabelled.value)
        approvalWait.observe(wait, series: SeriesIndex.unlabelled.then(decider, of: approvalWait.labels).value)
    }

    /// A waiting call no longer waits without a decision: its turn or session ended.
    public func approvalWithdrawn() {
        approvalsPending.add(-1, series: SeriesIndex.unlabelled.value)
    }

    /// The backend acknowledged a result; `latency` runs from the function's end to the acknowledgement.
    public func resultDelivered(latency: Duration) {
        deliveries.increment(series: SeriesIndex.unlabelled.then(.delivered, of: deliveries.labels).value)
        deliveryLatency.observe(latency, series: SeriesIndex.unlabelled.value)
    }

    /// A result POST is about to be sent again.
    public func resultDeliveryRetried(reason: RetryReason) {
        deliveryRetries.increment(series: SeriesIndex.unlabelled.then(reason, of: deliveryRetries.labels).value)
    }

    /// A result will never be delivered (its session is gone).
    public func resultAbandoned() {
        deliveries.increment(series: SeriesIndex.unlabelled.then(.abandoned, of: deliveries.labels).value)
    }

    // MARK: Turns

    /// A question waits for its session's previous turn.
    public func askQueued() {
        asksQueued.increment()
    }

    /// A queued question leaves the queue (its turn starts, or it is given up).
    public func askDequeued() {
        asksQueued.decrement()
    }

    /// A turn ended.
    /// - Parameters:
    ///   - ending: How it ended.
    ///   - duration: From the question to the end.
    ///   - usage: The tokens `turn_complete` reported, if any.
    public func turnFinished(ending: TurnEnding, duration: Duration, usage: TokenUsage?) {
        turns.increment(ending)
        turnDuration.observe(duration, ending)
        operationDuration.observe(duration, .invokeAgent, OperationError(ending))
        guard let usage else { return }
        tokenUsage.observe(Double(usage.promptTokens), .input)
        tokenUsage.observe(Double(usage.completionTokens), .output)
    }

    // MARK: Sessions and streams

    /// A session opened.
    public func sessionOpened() {
        sessionsOpen.increment()
    }

    /// A session closed.
    public func sessionClosed() {
        sessionsOpen.decrement()
    }

    /// An event stream connected (its response head arrived).
    public func streamConnected() {
        streamsConnected.increment()
    }

    /// A connected event stream ended, for whatever reason.
    public func streamDisconnected() {
        streamsConnected.decrement()
    }

    /// An event stream is opened again after it ended for `reason`.
    public func streamReconnecting(reason: ReconnectReason) {
        reconnects.increment(reason)
    }

    /// An event arrived; `type` is its SSE `event:` name (`other` unless the protocol defines it).
    public func eventReceived(type: String) {
        events.increment(series: events.labels.slot(of: type))
    }

    /// Calls were added to (positive) or settled and removed from (negative) a call journal.
    public func journalSizeChanged(by delta: Int) {
        journal.add(Double(delta), series: SeriesIndex.unlabelled.value)
    }

    /// A user's key moved between replicas sharing Redis, or a request for it came to the wrong one.
    public func replicaKeyEvent(_ event: ReplicaKeyEvent) {
        replicaKeys.increment(event)
    }

    // MARK: MCP

    /// An MCP request was answered.
    /// - Parameters:
    ///   - method: The JSON-RPC method (`other` unless listed in ``mcpMethods``).
    ///   - outcome: A result, a tool error, or the JSON-RPC error code.
    ///   - duration: From the request's arrival to its answer.
    public func mcpRequestFinished(method: String, outcome: MCPOutcome, duration: Duration) {
        mcpDuration.observe(duration, method, outcome)
    }
}
