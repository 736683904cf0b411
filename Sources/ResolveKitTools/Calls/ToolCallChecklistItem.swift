/// One tool call as a checklist row.
public struct ToolCallChecklistItem: Sendable, Hashable, Identifiable {
    /// Where the call is.
    public enum Status: Sendable, Hashable, CustomStringConvertible {
        /// Waiting for a person or policy.
        case pendingApproval
        /// Running.
        case running
        /// Finished with a result.
        case completed
        /// Declined, timed out before approval, or abandoned.
        case cancelled(reason: String)
        /// Ran and failed, was refused, or timed out.
        case failed(String)

        /// The status as a log line shows it, e.g. `completed` or `failed: Disk full`.
        public var description: String {
            switch self {
            case .pendingApproval: "pending approval"
            case .running: "running"
            case .completed: "completed"
            case .cancelled(let reason): "cancelled: \(reason)"
            case .failed(let message): "failed: \(message)"
            }
        }
    }

    /// How a call was decided.
    public struct Decision: Hashable, Sendable, CustomStringConvertible {
        /// A stable identifier such as `approved`.
        public let rawValue: String
        /// Creates a decision from its identifier.
        public init(_ rawValue: String) { self.rawValue = rawValue }
        /// The identifier.
        public var description: String { rawValue }

        /// Its function needs no approval.
        public static let notRequired = Decision("not_required")
        /// An approver allowed it.
        public static let approved = Decision("approved")
        /// An approver declined it, or its approval timed out.
        public static let declined = Decision("declined")
        /// Refused before anyone was asked: an unknown or not-allowed function, a draining runtime, an ended turn.
        public static let refused = Decision("refused")
    }

    /// The call id.
    public var id: ToolCallID
    /// The function.
    public var functionName: String
    /// The agent's sentence.
    public var humanDescription: String
    /// The arguments as sent.
    public var arguments: JSONValue
    /// Whether the local registration requires approval.
    public var requiresApproval: Bool
    /// Where the call is.
    public var status: Status
    /// The function's result once ``status`` is ``Status/completed``.
    public var result: JSONValue?
    /// How the call was decided; `nil` while undecided.
    public var decision: Decision?
    /// When the request arrived, on the runtime's clock.
    public var receivedAt: Duration = .zero
    /// When it was approved, declined or refused.
    public var decidedAt: Duration?
    /// When the function started.
    public var startedAt: Duration?
    /// When its outcome was recorded.
    public var finishedAt: Duration?
    /// The error's code when the call did not complete: the function's own code, or why it did not run.
    public var errorCode: ResolveKitFunctionError.Code?
    /// Where the call sits in a trace, once it has an outcome: its `execute_tool` span when the runtime records
    /// traces, else the context its question was asked under (`ask`'s `parent`), if any. Put its
    /// ``SpanContext/logMetadata`` on your own lines about the call to join them to its trace.
    public var spanContext: SpanContext?

    /// The error text the model was told, when the call did not complete.
    public var error: String? {
        switch status {
        case .failed(let message), .cancelled(let message): message
        case .pendingApproval, .running, .completed: nil
        }
    }

    /// Creates a row (for hosts and tests that feed checklists themselves).
    public init(
        id: ToolCallID, functionName: String, humanDescription: String, arguments: JSONValue, requiresApproval: Bool,
        status: Status, result: JSONValue? = nil
    ) {
        self.id = id
        self.functionName = functionName
        self.humanDescription = humanDescription
        self.arguments = arguments
        self.requiresApproval = requiresApproval
        self.status = status
        self.result = result
    }
}

/// A batch of checklist rows decided together.
public struct ToolCallChecklistBatch: Sendable, Hashable, Identifiable {
    /// The batch's number in the runtime's checklist history (calls shown at once, needing no approval, count as
    /// batches too), so not the ``ToolApprovalRequest/batchID`` an approver is given: match calls by their ids.
    public var id: Int
    /// The rows.
    public var items: [ToolCallChecklistItem]

    /// Creates a batch of rows.
    public init(id: Int, items: [ToolCallChecklistItem]) {
        self.id = id
        self.items = items
    }

    /// The aggregate state of the current batch.
    public enum State: Sendable, Hashable {
        /// No batch.
        case idle
        /// Waiting for approval.
        case awaitingApproval
        /// Approved calls are running.
        case running
        /// Every call of the batch has an outcome.
        case completed
    }
}
