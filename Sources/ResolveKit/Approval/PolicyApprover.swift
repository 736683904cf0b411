public import Foundation

/// Decides by rules per function name: allow, deny, or ask someone else (a terminal prompt, your code).
///
/// A policy file is JSON:
/// ```json
/// { "default": "ask", "functions": { "get_host_status": "allow", "read_log_tail": "deny" } }
/// ```
/// Calls ruled `ask` go to the `fallback` approver as one smaller batch; with no fallback they are declined.
public struct PolicyApprover: ToolApprover {
    /// What to do with calls to one function.
    public enum Rule: String, Sendable, Hashable, CaseIterable {
        /// Run without asking.
        case allow
        /// Never run.
        case deny
        /// Ask the fallback approver.
        case ask
    }

    /// Rules by function name.
    public var rules: [String: Rule]
    /// The rule for functions not named.
    public var defaultRule: Rule
    /// Who decides `ask` calls.
    public var fallback: (any ToolApprover)?

    /// Creates a policy.
    public init(rules: [String: Rule], defaultRule: Rule = .deny, fallback: (any ToolApprover)? = nil) {
        self.rules = rules
        self.defaultRule = defaultRule
        self.fallback = fallback
    }

    /// Reads a policy file.
    /// - Throws: ``PolicyFileError`` saying which member is wrong, or the file system's error.
    public init(contentsOf url: URL, fallback: (any ToolApprover)? = nil) throws {
        let data = try Data(contentsOf: url)
        try self.init(jsonBytes: [UInt8](data), fallback: fallback)
    }

    /// Reads a policy from JSON bytes.
    /// - Throws: ``PolicyFileError`` saying which member is wrong.
    public init(jsonBytes: [UInt8], fallback: (any ToolApprover)? = nil) throws(PolicyFileError) {
        let json: JSONValue
        do {
            json = try JSONValue(parsing: jsonBytes)
        } catch {
            throw PolicyFileError(message: "the policy is not valid JSON: \(error)")
        }
        func rule(_ value: JSONValue?, _ path: String) throws(PolicyFileError) -> Rule? {
            guard let value else { return nil }
            guard let name = value.stringValue, let rule = Rule(rawValue: name) else {
                throw PolicyFileError(message: "\(path) must be \"allow\", \"deny\" or \"ask\"")
            }
            return rule
        }
        guard let object = json.objectValue else { throw PolicyFileError(message: "the policy must be a JSON object") }
        let defaultRule = try rule(object["default"], "default") ?? .deny
        var rules: [String: Rule] = [:]
        if let functions = object["functions"] {
            guard let members = functions.objectValue else {
                throw PolicyFileError(message: "functions must be an object of function name to rule")
            }
            for (name, value) in members { rules[name] = try rule(value, "functions.\(name)") }
        }
        self.init(rules: rules, defaultRule: defaultRule, fallback: fallback)
    }

    /// The rule for `functionName`.
    public func rule(for functionName: String) -> Rule { rules[functionName] ?? defaultRule }

    /// Applies the rules; asks the fallback about `ask` calls.
    public func decide(_ request: ToolApprovalRequest) async -> ToolBatchDecision {
        var decisions: [String: ToolCallDecision] = [:]
        var askCalls: [ToolApprovalRequest.Call] = []
        for call in request.calls {
            switch rule(for: call.call.functionName) {
            case .allow: decisions[call.id] = .approve
            case .deny: decisions[call.id] = .decline(reason: "Denied by policy")
            case .ask: askCalls.append(call)
            }
        }
        if !askCalls.isEmpty {
            if let fallback {
                let answer = await fallback.decide(ToolApprovalRequest(batchID: request.batchID, calls: askCalls, sessionID: request.sessionID))
                for call in askCalls { decisions[call.id] = answer.decision(for: call.id) }
            } else {
                for call in askCalls { decisions[call.id] = .decline(reason: "No one was available to approve this call") }
            }
        }
        return .perCall(decisions)
    }
}

/// A policy file that cannot be used.
public struct PolicyFileError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong and how to fix it.
    public var message: String
    /// Creates an error.
    public init(message: String) { self.message = message }
    /// The message.
    public var description: String { "Invalid approval policy: \(message)" }
}
