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
    /// - Throws: ``ResolveKitError`` with ``ResolveKitError/Code/invalidConfiguration`` naming the file and what is
    ///   wrong: it cannot be read, or a member is wrong.
    public init(contentsOf url: URL, fallback: (any ToolApprover)? = nil) throws(ResolveKitError) {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            let reason = FileManager.default.fileExists(atPath: url.path) ? "cannot be read" : "does not exist"
            throw ResolveKitError(.invalidConfiguration, "The policy file \(url.path) \(reason)")
        }
        do {
            try self.init(jsonBytes: [UInt8](data), fallback: fallback)
        } catch {
            throw ResolveKitError(.invalidConfiguration, "The policy file \(url.path): \(error.message)")
        }
    }

    /// Reads a policy from JSON bytes.
    /// - Throws: ``ResolveKitError`` with ``ResolveKitError/Code/invalidConfiguration`` saying which member is wrong.
    public init(jsonBytes: [UInt8], fallback: (any ToolApprover)? = nil) throws(ResolveKitError) {
        let json: JSONValue
        do {
            json = try JSONValue(parsing: jsonBytes)
        } catch {
            throw Self.invalid("the policy is not valid JSON: \(error)")
        }
        func rule(_ value: JSONValue?, _ path: String) throws(ResolveKitError) -> Rule? {
            guard let value else { return nil }
            guard let name = value.stringValue, let rule = Rule(rawValue: name) else {
                throw Self.invalid("\(path) must be \"allow\", \"deny\" or \"ask\"")
            }
            return rule
        }
        guard let object = json.objectValue else { throw Self.invalid("the policy must be a JSON object") }
        let defaultRule = try rule(object["default"], "default") ?? .deny
        var rules: [String: Rule] = [:]
        if let functions = object["functions"] {
            guard let members = functions.objectValue else {
                throw Self.invalid("functions must be an object of function name to rule")
            }
            for (name, value) in members { rules[name] = try rule(value, "functions.\(name)") }
        }
        self.init(rules: rules, defaultRule: defaultRule, fallback: fallback)
    }

    private static func invalid(_ message: String) -> ResolveKitError {
        ResolveKitError(.invalidConfiguration, "Invalid approval policy: \(message)")
    }

    /// The rule for `functionName`.
    public func rule(for functionName: String) -> Rule { rules[functionName] ?? defaultRule }

    /// Whether the rules deny the call outright.
    public func denies(_ call: PendingToolCall) -> Bool { rule(for: call.functionName) == .deny }

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
