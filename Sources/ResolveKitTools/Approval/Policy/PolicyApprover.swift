public import Foundation

/// Decides by rules: per function, ordered rules on the call's arguments, then the function's default, then the
/// policy's. Each rule leads to allow, deny (with a message the model sees) or ask (someone else: a terminal
/// prompt, `rk-approve`, your code).
///
/// A policy file is JSON; a function's rule may be just an action (the shorthand) or a list of rules:
/// ```json
/// { "default": "ask",
///   "functions": {
///     "get_host_status": "allow",
///     "read_log_tail": { "rules": [
///         { "if": { "$.path": { "below": "/var/log/nginx" } }, "then": "allow" },
///         { "if": { "$.path": { "glob": "/var/log/*.gz" } }, "then": "deny",
///           "message": "Compressed logs cannot be read." }
///       ], "default": "ask" } } }
/// ```
/// Conditions (``Condition``): `equals`, `oneOf`, `prefix`, `glob`, `regex` (whole match), `range`
/// (`{"min", "max"}`, inclusive), `below` (a path under a root, as the Linux pack confines paths). A condition on an
/// argument the call does not have does not hold. Loading reports every mistake at `file:line:column`; with the
/// served functions it also checks function names and argument paths. A rule that can never match is a warning
/// (``warnings``). Calls ruled `ask` go to `fallback` as one smaller batch; with no fallback they are declined.
public struct PolicyApprover: ToolApprover {
    /// What to do with a call.
    public enum Rule: String, Sendable, Hashable, CaseIterable {
        /// Run without asking.
        case allow
        /// Never run.
        case deny
        /// Ask the fallback approver.
        case ask
    }

    /// Rules by function name without conditions (the shorthand).
    public var rules: [String: Rule]
    /// Ordered rules on arguments, by function name; they come before ``rules``.
    public var functionPolicies: [String: FunctionPolicy]
    /// The rule for functions not named.
    public var defaultRule: Rule
    /// Who decides `ask` calls.
    public var fallback: (any ToolApprover)?
    /// What loading found questionable but usable, such as a rule that can never match.
    public var warnings: [Problem] = []

    /// Creates a policy.
    public init(
        rules: [String: Rule], functionPolicies: [String: FunctionPolicy] = [:], defaultRule: Rule = .deny,
        fallback: (any ToolApprover)? = nil
    ) {
        self.rules = rules
        self.functionPolicies = functionPolicies
        self.defaultRule = defaultRule
        self.fallback = fallback
    }

    /// Reads a policy file.
    /// - Parameter functions: the functions served; when given, unknown function names and argument paths are
    ///   errors.
    /// - Throws: ``ResolveKitError`` with ``ResolveKitError/Code/invalidConfiguration``: the file cannot be read,
    ///   or every error in it, one `file:line:column: error: …` line each.
    public init(contentsOf url: URL, functions: ResolveKitRegistry? = nil, fallback: (any ToolApprover)? = nil)
        throws(ResolveKitError)
    {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            let reason = FileManager.default.fileExists(atPath: url.path) ? "cannot be read" : "does not exist"
            throw ResolveKitError(.invalidConfiguration, "The policy file \(url.path) \(reason)")
        }
        try self.init(jsonBytes: [UInt8](data), sourceName: url.path, functions: functions, fallback: fallback)
    }

    /// Reads a policy from JSON bytes; `sourceName` names it in problems.
    /// - Throws: ``ResolveKitError`` with ``ResolveKitError/Code/invalidConfiguration`` listing every error.
    public init(
        jsonBytes: [UInt8], sourceName: String = "policy", functions: ResolveKitRegistry? = nil,
        fallback: (any ToolApprover)? = nil
    ) throws(ResolveKitError) {
        let loaded = PolicyLoader(file: sourceName, functions: functions).load(jsonBytes)
        guard loaded.errors.isEmpty else {
            throw ResolveKitError(
                .invalidConfiguration,
                "Invalid approval policy:\n" + loaded.errors.map(\.description).joined(separator: "\n"))
        }
        self.init(
            rules: loaded.rules, functionPolicies: loaded.functionPolicies, defaultRule: loaded.defaultRule,
            fallback: fallback)
        warnings = loaded.problems.filter { $0.severity == .warning }
    }

    /// The rule for a call to `functionName` whatever its arguments: the shorthand, the function's default, or
    /// the policy's default.
    public func rule(for functionName: String) -> Rule {
        rules[functionName] ?? functionPolicies[functionName]?.defaultRule ?? defaultRule
    }

    /// Whether the rules deny the call outright.
    public func denies(_ call: PendingToolCall) -> Bool { verdict(for: call).action == .deny }

    /// Whether a rule naming the call's function denies it or asks about it: a call the function's registration
    /// lets run unasked is then decided as any other. The policy's `default` does not reach such calls.
    public func gates(_ call: PendingToolCall) -> Bool {
        let verdict = verdict(for: call)
        return verdict.source != "default" && verdict.action != .allow
    }

    /// Applies the rules, naming the rule that decided each call; asks the fallback about `ask` calls.
    public func decide(_ request: ToolApprovalRequest) async -> ToolBatchDecision {
        var decisions: [ToolCallID: ToolCallDecision] = [:]
        var askCalls: [ToolApprovalRequest.Call] = []
        for call in request.calls {
            let verdict = verdict(for: call.call)
            let decider = ToolCallDecision.Decider.policy(rule: verdict.source)
            switch verdict.action {
            case .allow: decisions[call.id] = .attributed(.approve, by: decider)
            case .deny:
                decisions[call.id] = .attributed(.decline(reason: verdict.message ?? "Denied by policy"), by: decider)
            case .ask: askCalls.append(call)
            }
        }
        if !askCalls.isEmpty {
            if let fallback {
                let answer = await fallback.decide(
                    ToolApprovalRequest(batchID: request.batchID, calls: askCalls, sessionID: request.sessionID))
                for call in askCalls { decisions[call.id] = answer.decision(for: call.id) }
            } else {
                for call in askCalls {
                    decisions[call.id] = .attributed(
                        .decline(reason: "No one was available to approve this call"),
                        by: .policy(rule: verdict(for: call.call).source))
                }
            }
        }
        return .perCall(decisions)
    }
}
