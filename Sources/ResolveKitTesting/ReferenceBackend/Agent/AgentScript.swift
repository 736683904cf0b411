import Foundation
public import ResolveKitCore

/// The scripted stand-in for the backend's LLM: rules that map a user message to the rounds of a turn.
///
/// The first rule whose ``Rule/match`` accepts the user text (and, when ``Rule/requiresEligibleFunctions`` is set,
/// whose tool calls all name functions eligible for the session) drives the turn; otherwise ``fallback`` does.
/// The backend runs the rounds the way the real orchestrator runs model replies (WireProtocol §7.1): a tool round
/// emits one `tool_call_request` per call and waits for the results; a text round ends the turn.
public struct AgentScript: Sendable {
    /// Which user messages a rule answers.
    public enum Match: Sendable {
        /// The text contains any of these words or phrases, ignoring case, as words of their own: a keyword starts
        /// where a word starts and ends where one ends, or before a plural `s`/`es` (`log` matches "logs" and
        /// "/var/log", not "catalog"; `time` not "uptime").
        case keywords([String])
        /// The text matches this regular expression (Swift `Regex` syntax), ignoring case.
        case regex(String)
        /// Every message.
        case always
    }

    /// One tool call the model asks for.
    public struct ToolCall: Sendable {
        /// The function name.
        public var functionName: String
        /// The arguments, sent as the payload's `arguments`.
        public var arguments: JSONValue
        /// The "I will …" sentence; `nil` uses the backend's fallback `"I will run <name>"`.
        public var humanDescription: String?
        /// Whether the arguments come from the function's schema and the user's message (``SchemaArguments``)
        /// instead of ``arguments``.
        public var argumentsFromMessage: Bool

        /// Creates a tool call.
        public init(
            _ functionName: String, arguments: JSONValue = .object([:]), humanDescription: String? = nil,
            argumentsFromMessage: Bool = false
        ) {
            self.functionName = functionName
            self.arguments = arguments
            self.humanDescription = humanDescription
            self.argumentsFromMessage = argumentsFromMessage
        }
    }

    /// One model reply within a turn.
    ///
    /// Text templates may quote the previous tool round: `{name}`/`{result}` are its first call's function name and
    /// the result text the model saw, `{name2}`/`{result2}` … the later calls, `{text}` the user message.
    public enum Round: Sendable {
        /// Tool calls, emitted back-to-back and awaited one after the other.
        case toolCalls([ToolCall])
        /// The final answer: optional `assistant_text_delta` chunks, then `turn_complete` and
        /// `feedback_requested{immediate:false}`.
        case text(String, deltas: [String] = [])
        /// A strict-scope rejection: `turn_complete` with `usage: null` and no `feedback_requested`.
        case rejection(String)
        /// The model call fails: one `error` event (`recoverable: true`).
        case error(code: String, message: String)
        /// The model escalates: the session becomes `escalated` and `session_escalated` is sent.
        case escalate(reason: String)
        /// An empty reply: the turn ends with no event at all.
        case empty
    }

    /// A rule: when to answer and with which rounds.
    public struct Rule: Sendable {
        /// Which messages this rule answers.
        public var match: Match
        /// The model replies of the turn, in order; running out of rounds behaves like ``Round/empty``.
        public var rounds: [Round]
        /// When `true`, the rule is skipped unless every function its tool rounds name is eligible for the
        /// session (a model is only offered eligible tools).
        public var requiresEligibleFunctions: Bool

        /// Creates a rule.
        public init(_ match: Match, rounds: [Round], requiresEligibleFunctions: Bool = true) {
            self.match = match
            self.rounds = rounds
            self.requiresEligibleFunctions = requiresEligibleFunctions
        }
    }

    /// The rules, tried in order.
    public var rules: [Rule]
    /// The rounds used when no rule applies.
    public var fallback: [Round]

    /// When no rule applies, call the registered functions the message names (by name, or by words of their
    /// descriptions) with arguments from their schemas, before falling back.
    public var callsNamedFunctions: Bool

    /// Creates a script.
    public init(
        rules: [Rule], fallback: [Round] = [.text("This is the reference backend answering: \"{text}\".")],
        callsNamedFunctions: Bool = false
    ) {
        self.rules = rules
        self.fallback = fallback
        self.callsNamedFunctions = callsNamedFunctions
    }

    /// The rounds for a message, given the names of the functions eligible for the session.
    public func rounds(for text: String, eligible: Set<String>) -> [Round] {
        rule(for: text, eligible: eligible)?.rounds ?? fallback
    }

    /// The first rule that answers `text`, given the names of the functions eligible for the session.
    func rule(for text: String, eligible: Set<String>) -> Rule? {
        for rule in rules where rule.match.accepts(text) {
            if rule.requiresEligibleFunctions {
                let names = rule.rounds.flatMap { round -> [String] in
                    if case .toolCalls(let calls) = round { return calls.map(\.functionName) }
                    return []
                }
                guard names.allSatisfy(eligible.contains) else { continue }
            }
            return rule
        }
        return nil
    }
}

extension AgentScript.Match {
    /// Whether `text` is accepted.
    public func accepts(_ text: String) -> Bool {
        switch self {
        case .always: return true
        case .keywords(let words):
            let lowered = text.lowercased()
            return words.contains { Self.containsWord($0.lowercased(), in: lowered) }
        case .regex(let pattern):
            guard let regex = try? Regex(pattern).ignoresCase() else { return false }
            return text.contains(regex)
        }
    }

    /// Whether `word` (lower case) is in `text` (lower case) with a word boundary before it and after it or its
    /// plural ending.
    static func containsWord(_ word: String, in text: String) -> Bool {
        guard !word.isEmpty else { return false }
        func isWordCharacter(_ character: Character) -> Bool { character.isLetter || character.isNumber }
        var searchStart = text.startIndex
        while let found = text.range(of: word, range: searchStart..<text.endIndex) {
            searchStart = text.index(after: found.lowerBound)
            if found.lowerBound > text.startIndex, isWordCharacter(text[text.index(before: found.lowerBound)]) {
                continue
            }
            let rest = text[found.upperBound...]
            let tail = rest.prefix { isWordCharacter($0) }
            if tail.isEmpty || tail == "s" || tail == "es" { return true }
        }
        return false
    }
}
