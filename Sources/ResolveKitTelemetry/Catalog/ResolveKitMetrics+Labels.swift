extension ResolveKitMetrics {
    /// How a tool call ended: the `outcome` label.
    public enum ToolOutcome: String, MetricLabelValue {
        /// The function returned a result.
        case success
        /// The function threw, or its arguments did not satisfy its schema.
        case error
        /// The approver (a person, a policy, a remembered decision) said no.
        case declined
        /// The call's deadline passed: nobody decided in time, or the function ran past it.
        case timeout
        /// The call was refused before approval: an unknown function, or one the session does not allow.
        case refused

        /// The case's position.
        public var labelIndex: Int {
            switch self {
            case .success: 0
            case .error: 1
            case .declined: 2
            case .timeout: 3
            case .refused: 4
            }
        }
    }

    /// Who or what decided a call: the `decided_by` label.
    public enum Decider: String, MetricLabelValue {
        /// A policy rule.
        case policy
        /// A person (at a terminal, over the approvals socket).
        case person
        /// A decision remembered from an earlier call.
        case remembered
        /// Nobody decided before the deadline.
        case timeout
        /// Nobody was asked: the function needs no approval, or the approver approves everything.
        case automatic
        /// The host program's own code.
        case host

        /// The case's position.
        public var labelIndex: Int {
            switch self {
            case .policy: 0
            case .person: 1
            case .remembered: 2
            case .timeout: 3
            case .automatic: 4
            case .host: 5
            }
        }
    }

    /// How a turn ended: the `ending` label.
    public enum TurnEnding: String, MetricLabelValue {
        /// The agent answered.
        case answered
        /// The agent failed with an `error` event.
        case agentError = "agent_error"
        /// The conversation was handed to a person.
        case escalated
        /// The caller's time ran out first.
        case timedOut = "timed_out"
        /// The backend lost the turn (no terminal event).
        case lost
        /// The caller cancelled, or the runtime stopped.
        case cancelled
        /// Any other failure (the session ended, the backend refused).
        case failed

        /// The case's position.
        public var labelIndex: Int {
            switch self {
            case .answered: 0
            case .agentError: 1
            case .escalated: 2
            case .timedOut: 3
            case .lost: 4
            case .cancelled: 5
            case .failed: 6
            }
        }
    }

    /// Why an event stream is opened again: the `reason` label.
    public enum ReconnectReason: String, MetricLabelValue {
        /// The server ended the response (the routine rotation).
        case endOfStream = "end_of_stream"
        /// Nothing arrived for longer than the idle limit.
        case idleTimeout = "idle_timeout"
        /// The connection failed or broke.
        case transportError = "transport_error"
        /// The server answered with an error status.
        case httpStatus = "http_status"

        /// The case's position.
        public var labelIndex: Int {
            switch self {
            case .endOfStream: 0
            case .idleTimeout: 1
            case .transportError: 2
            case .httpStatus: 3
            }
        }
    }

    /// Why a result POST is sent again: the `reason` label.
    public enum RetryReason: String, MetricLabelValue {
        /// The connection failed or broke.
        case transportError = "transport_error"
        /// The backend answered 5xx (or another status worth retrying, such as 400 while the agent is set up).
        case serverError = "server_error"
        /// The backend answered 429.
        case throttled
        /// The backend answered 409.
        case conflict
        /// The request's deadline passed, or the backend answered 408.
        case timeout
        /// The backend refused the capability token (403); it was refreshed first.
        case tokenRefresh = "token_refresh"

        /// The case's position.
        public var labelIndex: Int {
            switch self {
            case .transportError: 0
            case .serverError: 1
            case .throttled: 2
            case .conflict: 3
            case .timeout: 4
            case .tokenRefresh: 5
            }
        }
    }

    /// How an MCP request ended: the `error_type` label of `mcp_server_operation_duration_seconds`.
    public enum MCPOutcome: String, MetricLabelValue {
        /// Answered with a result (the label is left out).
        case ok = ""
        /// A `tools/call` answered with `isError: true`.
        case toolError = "tool_error"
        /// JSON-RPC -32700.
        case parseError = "-32700"
        /// JSON-RPC -32600.
        case invalidRequest = "-32600"
        /// JSON-RPC -32601.
        case methodNotFound = "-32601"
        /// JSON-RPC -32602.
        case invalidParams = "-32602"
        /// JSON-RPC -32603.
        case internalError = "-32603"
        /// Any other JSON-RPC error code.
        case other = "_OTHER"

        /// The outcome of a JSON-RPC error `code`.
        public init(jsonRPCCode code: Int) {
            self = MCPOutcome(rawValue: String(code)) ?? .other
        }

        /// The case's position.
        public var labelIndex: Int {
            switch self {
            case .ok: 0
            case .toolError: 1
            case .parseError: 2
            case .invalidRequest: 3
            case .methodNotFound: 4
            case .invalidParams: 5
            case .internalError: 6
            case .other: 7
            }
        }
    }

    /// The GenAI operation: the `gen_ai_operation_name` label.
    enum Operation: String, MetricLabelValue {
        case invokeAgent = "invoke_agent"
        case executeTool = "execute_tool"

        var labelIndex: Int { self == .invokeAgent ? 0 : 1 }
    }

    /// The GenAI `error.type` of an operation: empty (left out) when it succeeded.
    enum OperationError: String, MetricLabelValue {
        case none = ""
        case toolError = "tool_error"
        case declined, timeout, refused
        case agentError = "agent_error"
        case cancelled, lost
        case other = "_OTHER"

        var labelIndex: Int {
            switch self {
            case .none: 0
            case .toolError: 1
            case .declined: 2
            case .timeout: 3
            case .refused: 4
            case .agentError: 5
            case .cancelled: 6
            case .lost: 7
            case .other: 8
            }
        }

        init(_ outcome: ToolOutcome) {
            switch outcome {
            case .success: self = .none
            case .error: self = .toolError
            case .declined: self = .declined
            case .timeout: self = .timeout
            case .refused: self = .refused
            }
        }

        init(_ ending: TurnEnding) {
            switch ending {
            case .answered, .escalated: self = .none
            case .agentError: self = .agentError
            case .timedOut: self = .timeout
            case .lost: self = .lost
            case .cancelled: self = .cancelled
            case .failed: self = .other
            }
        }
    }

    /// GenAI token types: the `gen_ai_token_type` label.
    enum TokenType: String, MetricLabelValue {
        case input, output

        var labelIndex: Int { self == .input ? 0 : 1 }
    }

    /// Whether a result reached the backend: the `outcome` label of result deliveries.
    enum DeliveryOutcome: String, MetricLabelValue {
        case delivered, abandoned

        var labelIndex: Int { self == .delivered ? 0 : 1 }
    }

    /// What became of a user's state between replicas sharing Redis: the `event` label of replica key events.
    public enum ReplicaKeyEvent: String, MetricLabelValue {
        /// This replica took the key over from one that stopped with calls unsettled (its sweep).
        case takenOver = "taken_over"
        /// A request for the key came here while another replica held it (a request to route there).
        case ownedElsewhere = "owned_elsewhere"
        /// Another replica took the key while its session sat idle here.
        case lost

        /// The case's position.
        public var labelIndex: Int {
            switch self {
            case .takenOver: 0
            case .ownedElsewhere: 1
            case .lost: 2
            }
        }
    }
}
