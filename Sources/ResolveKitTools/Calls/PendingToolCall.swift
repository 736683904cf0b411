/// A tool call the runtime received and has not yet answered.
public struct PendingToolCall: Sendable, Hashable, Identifiable {
    /// The call id the result answers.
    public var callID: ToolCallID
    /// The server turn it belongs to (the result is posted with it).
    public var turnID: String
    /// The client `request_id` of the user turn.
    public var requestID: String
    /// The function to run.
    public var functionName: String
    /// The arguments as the model sent them.
    public var arguments: JSONValue
    /// The model's "I will …" sentence for the person approving.
    public var humanDescription: String
    /// Whether the call needs approval. Taken from the local registration, never from the event (§10.1);
    /// calls to functions this process does not know count as needing none (they are refused, not run).
    public var requiresApproval: Bool
    /// The server's wait for this call, approval included.
    public var timeoutSeconds: Int
    /// When the request arrived, on the runtime's clock.
    public var receivedAt: Duration

    /// The call id.
    public var id: ToolCallID { callID }

    /// When the server stops waiting: arrival plus the timeout (§7.3, §10.2).
    public var serverDeadline: Duration { receivedAt + .seconds(timeoutSeconds) }

    /// Creates a pending call.
    public init(
        callID: ToolCallID, turnID: String, requestID: String = "", functionName: String, arguments: JSONValue, humanDescription: String,
        requiresApproval: Bool, timeoutSeconds: Int, receivedAt: Duration
    ) {
        self.callID = callID
        self.turnID = turnID
        self.requestID = requestID
        self.functionName = functionName
        self.arguments = arguments
        self.humanDescription = humanDescription
        self.requiresApproval = requiresApproval
        self.timeoutSeconds = timeoutSeconds
        self.receivedAt = receivedAt
    }
}

/// Calls coalesced for one approval decision.
public struct ToolCallBatch: Sendable, Hashable, Identifiable {
    /// A number unique within the runtime, increasing.
    public var id: Int
    /// The calls in arrival order.
    public var calls: [PendingToolCall]

    /// Creates a batch.
    public init(id: Int, calls: [PendingToolCall]) {
        self.id = id
        self.calls = calls
    }
}
