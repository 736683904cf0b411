public import Foundation

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

    /// Where a message the user sent stands.
    public enum Delivery: Sendable, Hashable {
        /// Being sent (retried with the same request id on failures that retrying may fix).
        case pending
        /// The backend accepted it: its turn runs.
        case sent
        /// It could not be sent, for this reason; ``ResolveKitRuntime/resend(messageID:)`` tries again with the same
        /// request id, so the backend never takes it twice.
        case failed(ResolveKitError)
    }

    /// A stable id: the server's message or event id, or a local UUID (`user-<request id>` for what the user sent).
    public var id: String
    /// Who wrote it.
    public var role: Role
    /// The text.
    public var text: String
    /// For a message the user sent in this process: whether it reached the backend; `nil` otherwise.
    public var delivery: Delivery?
    /// When the backend stored it, for messages read from its history.
    public var time: Date?

    /// Creates a message.
    public init(id: String, role: Role, text: String, delivery: Delivery? = nil) {
        self.id = id
        self.role = role
        self.text = text
        self.delivery = delivery
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
    /// A message the user sent is now pending, sent or failed.
    case messageDeliveryChanged(messageID: String, ResolveKitChatMessage.Delivery)
    /// The backend acknowledged a call's result.
    case toolResultDelivered(callID: ToolCallID)
    /// The backend asks for a rating.
    case feedbackRequested(immediate: Bool)
    /// A new session replaced the previous one.
    case sessionStarted(sessionID: String, reused: Bool)
    /// A problem worth telling a person.
    case error(ResolveKitError)
}
