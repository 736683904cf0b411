public import Foundation

extension PolicyApprover {
    /// A mistake in a policy file, at its line and column.
    public struct Problem: Sendable, Hashable, CustomStringConvertible {
        /// Errors stop the policy from loading; warnings do not.
        public enum Severity: String, Sendable, Hashable {
            /// The policy cannot be used.
            case error
            /// The policy works, but probably not as meant (a rule that can never match).
            case warning
        }

        /// Error or warning.
        public var severity: Severity
        /// The file, as given.
        public var file: String
        /// The 1-based line.
        public var line: Int
        /// The 1-based column.
        public var column: Int
        /// What is wrong.
        public var message: String

        /// Creates a problem at a 1-based line and column of `file`.
        public init(severity: Severity, file: String, line: Int, column: Int, message: String) {
            self.severity = severity
            self.file = file
            self.line = line
            self.column = column
            self.message = message
        }

        /// `policy.json:7:21: error: unknown argument path $.pth for read_log_tail`.
        public var description: String { "\(file):\(line):\(column): \(severity.rawValue): \(message)" }
    }

    /// Checks a policy without building an approver: every error and warning, in file order. With `functions`,
    /// function names and argument paths are checked against their registrations.
    public static func check(jsonBytes: [UInt8], sourceName: String, functions: ResolveKitRegistry? = nil) -> [Problem] {
        PolicyLoader(file: sourceName, functions: functions).load(jsonBytes).problems
    }

    /// Reads a rule's `"if"` object (`{"$.path": {"below": "/var/log/nginx"}}`) for `function`, as a policy file
    /// would, checked against the function's schema when `functions` is given.
    /// - Throws: ``ResolveKitError`` with ``ResolveKitError/Code/invalidConfiguration`` listing what is wrong.
    public static func conditions(
        _ ifObject: JSONValue, for function: String, functions: ResolveKitRegistry? = nil
    ) throws(ResolveKitError) -> [ArgumentRule.Conditioned] {
        let text = JSONValue.object(["functions": .object([function: ["rules": [["if": ifObject, "then": "allow"]]]])])
        let loaded = PolicyLoader(file: "the condition", functions: functions).load(text.serializedBytes())
        guard loaded.errors.isEmpty, let rule = loaded.functionPolicies[function]?.rules.first else {
            let reasons = loaded.errors.map(\.message).joined(separator: "; ")
            throw ResolveKitError(.invalidConfiguration, "Invalid condition for \(function): \(reasons)")
        }
        return rule.conditions
    }

    /// Checks a policy file without building an approver (what `--check-policy` prints).
    /// - Throws: ``ResolveKitError`` with ``ResolveKitError/Code/invalidConfiguration`` when the file cannot be read.
    public static func check(contentsOf url: URL, functions: ResolveKitRegistry? = nil) throws(ResolveKitError) -> [Problem] {
        guard let data = FileManager.default.contents(atPath: url.path) else {
            let reason = FileManager.default.fileExists(atPath: url.path) ? "cannot be read" : "does not exist"
            throw ResolveKitError(.invalidConfiguration, "The policy file \(url.path) \(reason)")
        }
        return check(jsonBytes: [UInt8](data), sourceName: url.path, functions: functions)
    }
}

/// Reads a policy document into rules, collecting every problem with its position.
struct PolicyLoader {
    let file: String
    let functions: ResolveKitRegistry?
    private static let actions = #""allow", "deny" or "ask""#
    private static let conditionKinds = ["equals", "oneOf", "prefix", "glob", "regex", "range", "below"]

    struct Loaded {
        var defaultRule = PolicyApprover.Rule.deny
        var rules: [String: PolicyApprover.Rule] = [:]
        var functionPolicies: [String: PolicyApprover.FunctionPolicy] = [:]
        var problems: [PolicyApprover.Problem] = []

        var errors: [PolicyApprover.Problem] { problems.filter { $0.severity == .error } }
    }

    func load(_ bytes: [UInt8]) -> Loaded {
        var loaded = Loaded()
        do {
            _ = try JSONValue(parsing: bytes)
        } catch {
            let position = Self.position(ofByte: error.offset, in: bytes)
            loaded.problems.append(problem(.error, at: position, "not valid JSON: \(error.message)"))
            return loaded
        }
        guard let document = LocatedJSON.parse(bytes), let members = document.members else {
            loaded.problems.append(problem(.error, at: .init(line: 1, column: 1), "the policy must be a JSON object"))
            return loaded
        }
        loaded.problems += repeatedNames(in: document)
        for member in members {
            switch member.key {
            case "default":
                if let rule = action(member.value, "default", &loaded.problems) { loaded.defaultRule = rule }
            case "functions":
                guard let entries = member.value.members else {
                    loaded.problems.append(problem(.error, at: member.value.position, "functions must be an object of function name to rule"))
                    continue
                }
                for entry in entries { function(entry, into: &loaded) }
            default:
                loaded.problems.append(problem(.error, at: member.keyPosition, "unknown member \"\(member.key)\"; a policy has \"default\" and \"functions\""))
            }
        }
        loaded.problems.sort { ($0.line, $0.column) < ($1.line, $1.column) }
        return loaded
    }

    private func function(_ entry: LocatedJSON.Member, into loaded: inout Loaded) {
        let name = entry.key
        if let functions, functions.entry(named: name) == nil {
            let known = functions.functionNames.joined(separator: ", ")
            loaded.problems.append(problem(.error, at: entry.keyPosition, "unknown function \(name); the functions are \(known)"))
        }
        if case .scalar = entry.value {
            if let rule = action(entry.value, "functions.\(name)", &loaded.problems) { loaded.rules[name] = rule }
            return
        }
        guard let members = entry.value.members else {
            loaded.problems.append(problem(.error, at: entry.value.position, "functions.\(name) must be \(Self.actions) or an object with \"rules\""))
            return
        }
        var policy = PolicyApprover.FunctionPolicy(rules: [])
        var positions: [LocatedJSON.Position] = []
        for member in members {
            switch member.key {
            case "default": policy.defaultRule = action(member.value, "functions.\(name).default", &loaded.problems)
            case "rules":
                guard case .array(let items, _) = member.value else {
                    loaded.problems.append(problem(.error, at: member.value.position, "rules must be an array of rules"))
                    continue
                }
                for (index, item) in items.enumerated() {
                    guard let rule = rule(item, number: index + 1, of: name, &loaded.problems) else { continue }
                    policy.rules.append(rule)
                    positions.append(item.position)
                }
            default:
                loaded.problems.append(problem(.error, at: member.keyPosition, "unknown member \"\(member.key)\" in functions.\(name); use \"rules\" and \"default\""))
            }
        }
        loaded.problems += shadowed(policy.rules, at: positions)
        loaded.functionPolicies[name] = policy
    }

    private func rule(_ item: LocatedJSON, number: Int, of function: String, _ problems: inout [PolicyApprover.Problem])
        -> PolicyApprover.ArgumentRule?
    {
        guard let members = item.members else {
            problems.append(problem(.error, at: item.position, "a rule must be an object with \"then\" and optionally \"if\" and \"message\""))
            return nil
        }
        var conditions: [PolicyApprover.ArgumentRule.Conditioned] = []
        var action: PolicyApprover.Rule?
        var message: String?
        var valid = true
        for member in members {
            switch member.key {
            case "then": action = self.action(member.value, "then", &problems)
            case "message":
                message = member.value.value.stringValue
                if message == nil { problems.append(problem(.error, at: member.value.position, "message must be a string")) }
            case "if":
                guard let paths = member.value.members else {
                    problems.append(problem(.error, at: member.value.position, "if must be an object of argument path to condition"))
                    valid = false
                    continue
                }
                for path in paths {
                    guard let found = self.conditions(path, function: function, &problems) else { valid = false; continue }
                    conditions += found
                }
            default:
                problems.append(problem(.error, at: member.keyPosition, "unknown member \"\(member.key)\" in a rule; use \"if\", \"then\" and \"message\""))
            }
        }
        guard let action else {
            if !members.contains(where: { $0.key == "then" }) {
                problems.append(problem(.error, at: item.position, "the rule has no \"then\" (\(Self.actions))"))
            }
            return nil
        }
        guard valid else { return nil }
        let source = "\(function) rule \(number) (\(file):\(item.position.line):\(item.position.column))"
        return PolicyApprover.ArgumentRule(conditions: conditions, action: action, message: message, source: source)
    }

    /// The conditions on one argument path, checked against the function's schema when it is known.
    private func conditions(_ member: LocatedJSON.Member, function: String, _ problems: inout [PolicyApprover.Problem])
        -> [PolicyApprover.ArgumentRule.Conditioned]?
    {
        let path = member.key
        let steps = path.hasPrefix("$.") ? path.dropFirst(2).split(separator: ".", omittingEmptySubsequences: false) : []
        guard !steps.isEmpty, steps.allSatisfy({ !$0.isEmpty }) else {
            problems.append(problem(.error, at: member.keyPosition, "\(path) is not an argument path; write $.name or $.name.field"))
            return nil
        }
        var schema: JSONValue? = functions?.entry(named: function).map { .object($0.function.resolveKitParametersSchema) }
        if schema != nil {
            for step in steps {
                schema = schema?["properties"]?[String(step)]
                if schema == nil {
                    problems.append(problem(.error, at: member.keyPosition, "unknown argument path \(path) for \(function)"))
                    return nil
                }
            }
        }
        guard let kinds = member.value.members, !kinds.isEmpty else {
            problems.append(problem(.error, at: member.value.position, "the condition on \(path) must be an object such as {\"equals\": …}"))
            return nil
        }
        var found: [PolicyApprover.ArgumentRule.Conditioned] = []
        for kind in kinds {
            guard let condition = condition(kind, schema: schema, &problems) else { continue }
            found.append(.init(path: path, condition: condition))
        }
        return found.count == kinds.count ? found : nil
    }

    private func condition(_ kind: LocatedJSON.Member, schema: JSONValue?, _ problems: inout [PolicyApprover.Problem])
        -> PolicyApprover.Condition?
    {
        let value = kind.value.value
        let at = kind.value.position
        func string(_ build: (String) -> PolicyApprover.Condition) -> PolicyApprover.Condition? {
            guard let text = value.stringValue else {
                problems.append(problem(.error, at: at, "\(kind.key) needs a string"))
                return nil
            }
            return build(text)
        }
        switch kind.key {
        case "equals": return .equals(value)
        case "oneOf":
            guard let choices = value.arrayValue, !choices.isEmpty else {
                problems.append(problem(.error, at: at, "oneOf needs a non-empty array"))
                return nil
            }
            return .oneOf(choices)
        case "prefix": return string(PolicyApprover.Condition.prefix)
        case "glob": return string(PolicyApprover.Condition.glob)
        case "regex":
            guard let pattern = value.stringValue else { return string(PolicyApprover.Condition.regex) }
            do {
                _ = try Regex(pattern)
            } catch {
                problems.append(problem(.error, at: at, "the regex \(pattern) does not compile: \(error)"))
                return nil
            }
            return .regex(pattern)
        case "below":
            guard let root = value.stringValue else { return string(PolicyApprover.Condition.below) }
            if let reason = PathConfinementRules.refusal(root) {
                problems.append(problem(.error, at: at, "below needs an absolute root path, but \(reason)"))
                return nil
            }
            return .below(root)
        case "range":
            let bounds = value.objectValue ?? [:]
            let low = bounds["min"]
            let high = bounds["max"]
            let numbersOnly = bounds.keys.allSatisfy { $0 == "min" || $0 == "max" }
            guard value.objectValue != nil, numbersOnly, low != nil || high != nil,
                low.map({ $0.doubleValue != nil }) ?? true, high.map({ $0.doubleValue != nil }) ?? true
            else {
                problems.append(problem(.error, at: at, "range needs {\"min\": number, \"max\": number} (either may be left out)"))
                return nil
            }
            if let min = low?.doubleValue, let max = high?.doubleValue, min > max {
                problems.append(problem(
                    .error, at: at,
                    "the range's min \(JSONValue.number(min).serialized()) is above its max \(JSONValue.number(max).serialized())"))
                return nil
            }
            if let type = schema?["type"]?.stringValue, type != "number", type != "integer" {
                problems.append(problem(.error, at: at, "range applies to numbers, but the argument is a \(type)"))
                return nil
            }
            return .range(min: low?.doubleValue, max: high?.doubleValue)
        default:
            problems.append(problem(.error, at: kind.keyPosition, "unknown condition \(kind.key); use one of " + Self.conditionKinds.joined(separator: ", ")))
            return nil
        }
    }

    /// A name given twice in one object: JSON keeps one of the two, so the other would be ignored without a word.
    private func repeatedNames(in value: LocatedJSON) -> [PolicyApprover.Problem] {
        switch value {
        case .scalar: return []
        case .array(let items, _): return items.flatMap(repeatedNames)
        case .object(let members, _):
            var seen: [String: LocatedJSON.Position] = [:]
            var problems: [PolicyApprover.Problem] = []
            for member in members {
                if let first = seen[member.key] {
                    problems.append(problem(
                        .error, at: member.keyPosition,
                        "\"\(member.key)\" is given twice in this object (first at \(first.line):\(first.column))"))
                } else {
                    seen[member.key] = member.keyPosition
                }
                problems += repeatedNames(in: member.value)
            }
            return problems
        }
    }

    /// A rule whose conditions include all of an earlier rule's can never match: the earlier one always wins.
    private func shadowed(_ rules: [PolicyApprover.ArgumentRule], at positions: [LocatedJSON.Position])
        -> [PolicyApprover.Problem]
    {
        var problems: [PolicyApprover.Problem] = []
        for (later, rule) in rules.enumerated() {
            let covers = Set(rule.conditions)
            guard let earlier = rules[..<later].first(where: { Set($0.conditions).isSubset(of: covers) }) else { continue }
            let name = earlier.source.split(separator: " (").first.map(String.init) ?? "an earlier rule"
            problems.append(problem(
                .warning, at: positions[later], "this rule can never match: \(name) matches every call it would"))
        }
        return problems
    }

    private func action(_ value: LocatedJSON, _ name: String, _ problems: inout [PolicyApprover.Problem]) -> PolicyApprover.Rule? {
        guard let text = value.value.stringValue, let rule = PolicyApprover.Rule(rawValue: text) else {
            problems.append(problem(.error, at: value.position, "\(name) must be \(Self.actions)"))
            return nil
        }
        return rule
    }

    private func problem(_ severity: PolicyApprover.Problem.Severity, at position: LocatedJSON.Position, _ message: String)
        -> PolicyApprover.Problem
    {
        PolicyApprover.Problem(severity: severity, file: file, line: position.line, column: position.column, message: message)
    }

    private static func position(ofByte offset: Int, in bytes: [UInt8]) -> LocatedJSON.Position {
        var position = LocatedJSON.Position(line: 1, column: 1)
        for byte in bytes.prefix(offset) {
            if byte == UInt8(ascii: "\n") {
                position = .init(line: position.line + 1, column: 1)
            } else if byte & 0xC0 != 0x80 {
                position.column += 1
            }
        }
        return position
    }
}
