import Foundation

/// Reads a policy document into rules, collecting every problem with its position.
struct PolicyLoader {
    let file: String
    let functions: ResolveKitRegistry?
    static let actions = #""allow", "deny" or "ask""#
    static let conditionKinds = ["equals", "oneOf", "prefix", "glob", "regex", "range", "below"]

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
        let located = LocatedJSON.parse(bytes)
        guard let document = located, let members = document.members else {
            // At the value, which blank lines or spaces may put after 1:1.
            let position = located?.position ?? .init(line: 1, column: 1)
            loaded.problems.append(problem(.error, at: position, "the policy must be a JSON object"))
            return loaded
        }
        loaded.problems += repeatedNames(in: document)
        for member in members {
            switch member.key {
            case "default":
                if let rule = action(member.value, "default", &loaded.problems) { loaded.defaultRule = rule }
            case "functions":
                guard let entries = member.value.members else {
                    loaded.problems.append(
                        problem(
                            .error, at: member.value.position, "functions must be an object of function name to rule"))
                    continue
                }
                for entry in entries { function(entry, into: &loaded) }
            default:
                loaded.problems.append(
                    problem(
                        .error, at: member.keyPosition,
                        "unknown member \"\(member.key)\"; a policy has \"default\" and \"functions\""))
            }
        }
        loaded.problems.sort { ($0.line, $0.column) < ($1.line, $1.column) }
        return loaded
    }

    private func function(_ entry: LocatedJSON.Member, into loaded: inout Loaded) {
        let name = entry.key
        if let functions, functions.entry(named: name) == nil {
            let known = functions.functionNames.joined(separator: ", ")
            loaded.problems.append(
                problem(.error, at: entry.keyPosition, "unknown function \(name); the functions are \(known)"))
        }
        if case .scalar = entry.value {
            if let rule = action(entry.value, "functions.\(name)", &loaded.problems) { loaded.rules[name] = rule }
            return
        }
        guard let members = entry.value.members else {
            loaded.problems.append(
                problem(
                    .error, at: entry.value.position,
                    "functions.\(name) must be \(Self.actions) or an object with \"rules\""))
            return
        }
        var policy = PolicyApprover.FunctionPolicy(rules: [])
        var positions: [LocatedJSON.Position] = []
        for member in members {
            switch member.key {
            case "default": policy.defaultRule = action(member.value, "functions.\(name).default", &loaded.problems)
            case "rules":
                guard case .array(let items, _) = member.value else {
                    loaded.problems.append(
                        problem(.error, at: member.value.position, "rules must be an array of rules"))
                    continue
                }
                for (index, item) in items.enumerated() {
                    guard let rule = rule(item, number: index + 1, of: name, &loaded.problems) else { continue }
                    policy.rules.append(rule)
                    positions.append(item.position)
                }
            default:
                loaded.problems.append(
                    problem(
                        .error, at: member.keyPosition,
                        "unknown member \"\(member.key)\" in functions.\(name); use \"rules\" and \"default\""))
            }
        }
        loaded.problems += shadowed(policy.rules, at: positions)
        loaded.functionPolicies[name] = policy
    }

    private func rule(_ item: LocatedJSON, number: Int, of function: String, _ problems: inout [PolicyApprover.Problem])
        -> PolicyApprover.ArgumentRule?
    {
        guard let members = item.members else {
            problems.append(
                problem(
                    .error, at: item.position,
                    "a rule must be an object with \"then\" and optionally \"if\" and \"message\""))
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
                if message == nil {
                    problems.append(problem(.error, at: member.value.position, "message must be a string"))
                }
            case "if":
                guard let paths = member.value.members else {
                    problems.append(
                        problem(.error, at: member.value.position, "if must be an object of argument path to condition")
                    )
                    valid = false
                    continue
                }
                for path in paths {
                    guard let found = self.conditions(path, function: function, &problems) else {
                        valid = false; continue
                    }
                    conditions += found
                }
            default:
                problems.append(
                    problem(
                        .error, at: member.keyPosition,
                        "unknown member \"\(member.key)\" in a rule; use \"if\", \"then\" and \"message\""))
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

    func action(_ value: LocatedJSON, _ name: String, _ problems: inout [PolicyApprover.Problem])
        -> PolicyApprover.Rule?
    {
        guard let text = value.value.stringValue, let rule = PolicyApprover.Rule(rawValue: text) else {
            problems.append(problem(.error, at: value.position, "\(name) must be \(Self.actions)"))
            return nil
        }
        return rule
    }

    func problem(
        _ severity: PolicyApprover.Problem.Severity, at position: LocatedJSON.Position, _ message: String
    )
        -> PolicyApprover.Problem
    {
        PolicyApprover.Problem(
            severity: severity, file: file, line: position.line, column: position.column, message: message)
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
