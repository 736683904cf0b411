/// One line of the conversation as a host shows it.
public struct ResolveKitChatMessage: Sendable, Hashable, Identifiable {
    /// Who wrote it.
    public enum Role: String, Sendable, Hashable {
        /// The person using the host.
        case user
        /// The agent.
        case assistant
        /// A person in the backend's dashboard (after a hand-off).
        case humanAgent = "human_agent"
        /// The runtime itself: errors, session changes, escalation notices.
        case system
    }

    /// A stable id: the server's message or event id, or a local UUID.
    public var id: String
    /// Who wrote it.
    public var role: Role
    /// The text.
    public var text: String

    /// Creates a message.
    public init(id: String, role: Role, text: String) {
        self.id = id
        self.role = role
        self.text = text
    }
}

/// One tool call as a checklist row.
public struct ToolCallChecklistItem: Sendable, Hashable, Identifiable {
    /// Where the call is.
    public enum Status: Sendable, Hashable {
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
    public var id: String
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

    /// The error text the model was told, when the call did not complete.
    public var error: String? {
        switch status {
        case .failed(let message), .cancelled(let message): message
        case .pendingApproval, .running, .completed: nil
        }
    }

    /// Creates a row (for hosts and tests that feed checklists themselves).
    public init(
        id: String, functionName: String, humanDescription: String, arguments: JSONValue, requiresApproval: Bool,
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
    /// The batch number.
    public var id: Int
    /// The rows.
    public var items: [ToolCallChecklistItem]

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

/// What `sendMessage` achieved. Failures are results, not thrown errors.
///
/// Frozen on purpose: a message is accepted, refused because a turn runs, or not sent for a reason that the
/// ``ResolveKitError`` names (``ResolveKitError/Code/invalidMessage`` for a bad text).
public enum ResolveKitSendOutcome: Sendable, Hashable {
    /// The backend accepted the turn.
    case accepted(turnID: String)
    /// Not sent: a turn is already running on this session (one turn at a time, §7.6). `ask` waits instead.
    case rejectedTurnInProgress
    /// Not sent, for this reason.
    case failed(ResolveKitError)
}

/// Something that happened, for hosts that react with side effects. Each subscriber of
/// ``ResolveKitRuntime/events`` gets every event from its subscription on.
public enum ResolveKitRuntimeEvent: Sendable, Hashable {
    /// The connection state changed.
    case connectionStateChanged(ResolveKitConnectionState)
    /// A message was added to the transcript.
    case messageAppended(ResolveKitChatMessage)
    /// Streaming text of the current answer so far.
    case assistantDraft(String)
    /// A turn started.
    case turnStarted(turnID: String)
    /// A turn ended.
    case turnEnded(turnID: String?)
    /// A batch of calls waits for approval.
    case toolBatchAwaitingApproval(ToolCallChecklistBatch)
    /// A call's checklist row changed.
    case toolCallUpdated(ToolCallChecklistItem)
    /// The backend acknowledged a call's result.
    case toolResultDelivered(callID: String)
    /// The backend asks for a rating.
    case feedbackRequested(immediate: Bool)
    /// A new session replaced the previous one.
    case sessionStarted(sessionID: String, reused: Bool)
    /// A problem worth telling a person.
    case error(ResolveKitError)
}
