public import ResolveKitCore

/// Decides the model replies of a turn: the scripted ``AgentScript`` by default, or a real model (see
/// ``OpenAICompatibleModel``). The backend runs whatever the model answers the way the real orchestrator does.
public protocol AgentModel: Sendable {
    /// The next reply of the model in a turn, given everything it has seen so far.
    func nextRound(_ context: AgentContext) async -> AgentScript.Round
}

/// What the model sees at one step of a turn.
public struct AgentContext: Sendable {
    /// A tool offered to the model: an eligible function.
    public struct Tool: Sendable {
        /// The function name.
        public var name: String
        /// The description.
        public var description: String
        /// The JSON Schema of the arguments.
        public var parametersSchema: JSONValue

        /// Creates a tool (for tests of your own ``AgentModel``).
        public init(name: String, description: String, parametersSchema: JSONValue) {
            self.name = name
            self.description = description
            self.parametersSchema = parametersSchema
        }
    }

    /// An earlier transcript message.
    public struct Message: Sendable {
        /// `user`, `assistant` or `human_agent`.
        public var role: String
        /// The text.
        public var content: String
    }

    /// One tool call of this turn with the result text the model got for it.
    public struct ToolStep: Sendable {
        /// The call id.
        public var callID: String
        /// The function name.
        public var functionName: String
        /// The arguments the model asked with.
        public var arguments: JSONValue
        /// The result as the model sees it (WireProtocol §4.10).
        public var result: String
    }

    /// The user message that started the turn.
    public var userText: String
    /// The session's transcript before this message, made when read: a scripted turn never reads it, so a long
    /// session's turns do not each copy its whole transcript.
    public var history: [Message] {
        get {
            switch transcript {
            case .messages(let messages): messages
            case .stored(let stored):
                stored.compactMap { message in message.content.map { Message(role: message.role, content: $0) } }
            }
        }
        set { transcript = .messages(newValue) }
    }
    /// The session's `llm_context`.
    public var llmContext: JSONValue
    /// The tools offered (eligible functions, WireProtocol §7.7).
    public var tools: [Tool]
    /// The tool rounds of this turn so far, oldest first.
    public var rounds: [[ToolStep]]
    private var transcript: Transcript

    /// The history as given, or the session's stored messages (shared with the session, not copied).
    private enum Transcript: Sendable {
        case messages([Message])
        case stored([StoredMessage])
    }

    /// Creates a context (for tests of your own ``AgentModel``).
    public init(userText: String, history: [Message], llmContext: JSONValue, tools: [Tool], rounds: [[ToolStep]]) {
        self.userText = userText
        self.transcript = .messages(history)
        self.llmContext = llmContext
        self.tools = tools
        self.rounds = rounds
    }

    init(userText: String, stored: [StoredMessage], llmContext: JSONValue, tools: [Tool]) {
        self.userText = userText
        self.transcript = .stored(stored)
        self.llmContext = llmContext
        self.tools = tools
        self.rounds = []
    }
}

extension AgentScript: AgentModel {
    /// The script's round for this step: the rule's rounds are consumed one per tool round.
    public func nextRound(_ context: AgentContext) async -> Round {
        let eligible = Set(context.tools.map(\.name))
        var rounds = callsNamedFunctions ? SchemaDrivenPlan.roundsForExactNames(in: context) : nil
        if rounds == nil, callsNamedFunctions { rounds = roundsForSeveralCallRules(context, eligible: eligible) }
        if rounds == nil { rounds = rule(for: context.userText, eligible: eligible)?.rounds }
        if rounds == nil, callsNamedFunctions { rounds = SchemaDrivenPlan.rounds(for: context) }
        let chosen = rounds ?? fallback
        guard context.rounds.count < chosen.count else { return .empty }
        return SchemaDrivenPlan.resolve(chosen[context.rounds.count], in: context)
    }
}

extension AgentScript {
    /// A message that matches several rules each calling one function (``callRule(_:function:)``), as "what time
    /// is it and how much disk space is free": one batch calling them all, as a model would; `nil` for fewer.
    func roundsForSeveralCallRules(_ context: AgentContext, eligible: Set<String>) -> [AgentScript.Round]? {
        var names: [String] = []
        for rule in rules where rule.match.accepts(context.userText) {
            guard let name = rule.calledFunction, eligible.contains(name), !names.contains(name) else { continue }
            names.append(name)
        }
        guard names.count > 1 else { return nil }
        let tools = names.compactMap { name in context.tools.first { $0.name == name } }
        return SchemaDrivenPlan.rounds(calling: tools, in: context)
    }
}

extension AgentScript.Rule {
    /// The function a ``AgentScript/callRule(_:function:)`` calls; `nil` for any other rule.
    var calledFunction: String? {
        guard rounds.count == 2, case .toolCalls(let calls) = rounds[0], calls.count == 1,
            calls[0].argumentsFromMessage, case .text(AgentScript.doneTemplate, _) = rounds[1]
        else { return nil }
        return calls[0].functionName
    }
}
