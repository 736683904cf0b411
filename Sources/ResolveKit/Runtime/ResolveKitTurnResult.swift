/// What one turn produced: the answer, every tool call it made with its outcome and timing, and the token usage.
///
/// ``ResolveKitRuntime/ask(_:timeout:parent:)`` returns it when the turn ended with an answer, an agent error or a
/// hand-off; a turn the backend lost, a session that ended, or a timeout is a thrown ``ResolveKitError`` instead.
public struct ResolveKitTurnResult: Sendable, Hashable {
    /// How the turn ended.
    public struct Ending: Hashable, Sendable, CustomStringConvertible {
        /// A stable identifier such as `answered`.
        public let rawValue: String
        /// Creates an ending from its identifier.
        public init(_ rawValue: String) { self.rawValue = rawValue }
        /// The identifier.
        public var description: String { rawValue }

        /// The agent answered (`turn_complete`, or the answer found in the history after a missed event).
        public static let answered = Ending("answered")
        /// The agent failed (an `error` event); ``ResolveKitTurnResult/text`` is its message.
        public static let agentError = Ending("agent_error")
        /// The conversation was handed off to a person; the session is closed.
        public static let escalated = Ending("escalated")
        /// The turn had not ended (only in ``ResolveKitError/turnSoFar``).
        public static let unfinished = Ending("unfinished")
    }

    /// The server's turn id.
    public var turnID: String
    /// How the turn ended.
    public var ending: Ending
    /// The answer (or the agent's error or hand-off message).
    public var text: String
    /// The tool calls, in arrival order, each with its decision, outcome and timing.
    public var toolCalls: [ToolCallChecklistItem]
    /// Token usage from `turn_complete`, when the backend reported it.
    public var usage: TokenUsage?

    /// Creates a result (for hosts' tests).
    public init(
        turnID: String, ending: Ending, text: String, toolCalls: [ToolCallChecklistItem] = [], usage: TokenUsage? = nil
    ) {
        self.turnID = turnID
        self.ending = ending
        self.text = text
        self.toolCalls = toolCalls
        self.usage = usage
    }
}

extension ResolveKitError {
    /// For a turn that did not end (`turnTimedOut`, `turnLost`, `cancelled`): what it had done so far, its calls
    /// included, with ending ``ResolveKitTurnResult/Ending/unfinished``.
    public var turnSoFar: ResolveKitTurnResult? {
        get { detail as? ResolveKitTurnResult }
        set { detail = newValue }
    }
}
