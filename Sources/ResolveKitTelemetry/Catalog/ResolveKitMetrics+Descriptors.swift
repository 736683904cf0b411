extension ResolveKitMetrics {
    /// The value of `gen_ai.provider.name` on the GenAI metrics and spans: the agent is a ResolveKit backend.
    public static let providerName = "resolvekit"

    /// The event types the protocol defines (WireProtocol §6); any other type is counted as `other`.
    public static let eventTypes = [
        "tool_call_request", "turn_complete", "assistant_text_delta", "error", "feedback_requested",
        "session_escalated", "human_message",
    ]

    /// The MCP methods counted by name; any other method is counted as `other`.
    public static let mcpMethods = [
        "initialize", "ping", "tools/list", "tools/call", "notifications/initialized", "notifications/cancelled",
        "logging/setLevel", "resources/list", "resources/templates/list", "prompts/list", "completion/complete",
        "server/discover",
    ]

    enum Descriptors {
        static let genAIConstants = [
            MetricDescriptor.ConstantLabel("gen_ai_provider_name", providerName, attributeKey: "gen_ai.provider.name")
        ]

        static let toolCalls = MetricDescriptor(
            "resolvekit_tool_calls", help: "Tool calls that ended, by function, outcome and who decided.",
            unit: "{call}", otelName: "resolvekit.tool.calls")
        static let toolExecution = MetricDescriptor(
            "resolvekit_tool_execution_duration_seconds", help: "How long functions ran, by function.", unit: "s",
            otelName: "resolvekit.tool.execution.duration")
        static let toolsRunning = MetricDescriptor(
            "resolvekit_tool_calls_running", help: "Functions running now.", unit: "{call}",
            otelName: "resolvekit.tool.calls.running")
        static let approvalWait = MetricDescriptor(
            "resolvekit_tool_approval_wait_seconds", help: "How long calls waited for a decision, by who decided.",
            unit: "s", otelName: "resolvekit.tool.approval.wait")
        static let approvalsPending = MetricDescriptor(
            "resolvekit_approvals_pending", help: "Calls waiting for a decision now.", unit: "{call}",
            otelName: "resolvekit.approvals.pending")
        static let deliveryLatency = MetricDescriptor(
            "resolvekit_tool_result_delivery_seconds",
            help: "From a function's end to the backend's acknowledgement of its result, retries included.", unit: "s",
            otelName: "resolvekit.tool.result.delivery")
        static let deliveryRetries = MetricDescriptor(
            "resolvekit_tool_result_delivery_retries", help: "Result POSTs sent again, by reason.", unit: "{request}",
            otelName: "resolvekit.tool.result.delivery.retries")
        static let deliveries = MetricDescriptor(
            "resolvekit_tool_results", help: "Results that reached the backend, or were given up, by outcome.",
            unit: "{result}", otelName: "resolvekit.tool.results")
        static let turns = MetricDescriptor(
            "resolvekit_turns", help: "Turns that ended, by ending.", unit: "{turn}", otelName: "resolvekit.turns")
        static let turnDuration = MetricDescriptor(
            "resolvekit_turn_duration_seconds", help: "From a question to its turn's end, by ending.", unit: "s",
            otelName: "resolvekit.turn.duration")
        static let asksQueued = MetricDescriptor(
            "resolvekit_asks_queued", help: "Questions waiting for their session's previous turn.", unit: "{turn}",
            otelName: "resolvekit.asks.queued")
        static let tokenUsage = MetricDescriptor(
            "gen_ai_client_token_usage", help: "Tokens a turn used, by type (GenAI semantic conventions).",
            unit: "{token}", otelName: "gen_ai.client.token.usage",
            constantLabels: [
                MetricDescriptor.ConstantLabel(
                    "gen_ai_operation_name", "invoke_agent",
                    attributeKey: "gen_ai.operation.name")
            ] + genAIConstants)
        static let operationDuration = MetricDescriptor(
            "gen_ai_client_operation_duration_seconds",
            help: "Duration of GenAI operations: turns (invoke_agent) and function runs (execute_tool).", unit: "s",
            otelName: "gen_ai.client.operation.duration", constantLabels: genAIConstants)
        static let sessionsOpen = MetricDescriptor(
            "resolvekit_sessions_open", help: "Sessions open now.", unit: "{session}",
            otelName: "resolvekit.sessions.open")
        static let streamsConnected = MetricDescriptor(
            "resolvekit_event_streams_connected", help: "Event streams connected now.", unit: "{stream}",
            otelName: "resolvekit.event_streams.connected")
        static let reconnects = MetricDescriptor(
            "resolvekit_event_stream_reconnects", help: "Event streams opened again, by reason.", unit: "{connection}",
            otelName: "resolvekit.event_stream.reconnects")
        static let events = MetricDescriptor(
            "resolvekit_events_received", help: "Events received on event streams, by type.", unit: "{event}",
            otelName: "resolvekit.events.received")
        static let replicaKeys = MetricDescriptor(
            "resolvekit_replica_key_events",
            help: "User keys taken over from a stopped replica, requested while another held them, or lost to one.",
            unit: "{key}", otelName: "resolvekit.replica.key_events")
        static let journal = MetricDescriptor(
            "resolvekit_journal_entries",
            help: "Calls kept in the call journals of open sessions (each call id once; settled ones until pruned).",
            unit: "{call}", otelName: "resolvekit.journal.entries")
        static let mcpDuration = MetricDescriptor(
            "mcp_server_operation_duration_seconds",
            help: "MCP requests from arrival to answer, by method and error (MCP semantic conventions).", unit: "s",
            otelName: "mcp.server.operation.duration")
    }

    /// Bucket bounds, in seconds or tokens.
    enum Buckets {
        static let execution = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300]
        static let approval = [0.01, 0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300]
        static let delivery = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30]
        static let turn = [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 30, 60, 120, 300]
        /// The GenAI conventions' advice for `gen_ai.client.operation.duration`.
        static let genAIDuration = [
            0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92,
        ]
        /// The GenAI conventions' advice for `gen_ai.client.token.usage`.
        static let tokens: [Double] = [
            1, 4, 16, 64, 256, 1024, 4096, 16384, 65536, 262_144, 1_048_576, 4_194_304, 16_777_216, 67_108_864,
        ]
        /// The MCP conventions' advice for `mcp.server.operation.duration`.
        static let mcp = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300]
    }
}
