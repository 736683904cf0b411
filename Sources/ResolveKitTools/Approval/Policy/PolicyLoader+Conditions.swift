import Foundation

/// Conditions, and the checks that look across a policy: names given twice, rules that can never match.
extension PolicyLoader {
    /// The conditions on one argument path, checked against the function's schema when it is known.
    func conditions(_ member: LocatedJSON.Member, function: String, _ problems: inout [PolicyApprover.Problem])
        -> [PolicyApprover.ArgumentRule.Conditioned]?
    {
        let path = member.key
        let steps =
            path.hasPrefix("$.") ? path.dropFirst(2).split(separator: ".", omittingEmptySubsequences: false) : []
        guard !steps.isEmpty, steps.allSatisfy({ !$0.isEmpty }) else {
            problems.append(
                problem(.error, at: member.keyPosition, "\(path) is not an argument path; write $.name or $.name.field")
            )
            return nil
        }
        var schema: JSONValue? = functions?.entry(named: function).map {
            .object($0.function.resolveKitParametersSchema)
        }
        // An unknown path is reported, and its conditions are still checked (without a schema): every mistake at once.
        var pathIsKnown = true
        if schema != nil {
            for step in steps {
                schema = schema?["properties"]?[String(step)]
                if schema == nil {
                    problems.append(
                        problem(.error, at: member.keyPosition, "unknown argument path \(path) for \(function)"))
                    pathIsKnown = false
                    break
                }
            }
        }
        guard let kinds = member.value.members, !kinds.isEmpty else {
            problems.append(
                problem(
                    .error, at: member.value.position,
                    "the condition on \(path) must be an object such as {\"equals\": …}"))
            return nil
        }
        var found: [PolicyApprover.ArgumentRule.Conditioned] = []
        for kind in kinds {
            guard let condition = condition(kind, schema: schema, &problems) else { continue }
            found.append(.init(path: path, condition: condition))
        }
        return found.count == kinds.count && pathIsKnown ? found : nil
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
                problems.append(
                    problem(.error, at: at, "range needs {\"min\": number, \"max\": number} (either may be left out)"))
                return nil
            }
            if let min = low?.doubleValue, let max = high?.doubleValue, min > max {
                let (minText, maxText) = (JSONValue.number(min).serialized(), JSONValue.number(max).serialized())
                problems.append(problem(.error, at: at, "the range's min \(minText) is above its max \(maxText)"))
                return nil
            }
            if let type = schema?["type"]?.stringValue, type != "number", type != "integer" {
                problems.append(problem(.error, at: at, "range applies to numbers, but the argument is a \(type)"))
                return nil
            }
            return .range(min: low?.doubleValue, max: high?.doubleValue)
        default:
            problems.append(
                problem(
                    .error, at: kind.keyPosition,
                    "unknown condition \(kind.key); use one of " + Self.conditionKinds.joined(separator: ", ")))
            return nil
        }
    }

    /// A name given twice in one object: JSON keeps one of the two, so the other would be ignored without a word.
    func repeatedNames(in value: LocatedJSON) -> [PolicyApprover.Problem] {
        switch value {
        case .scalar: return []
        case .array(let items, _): return items.flatMap(repeatedNames)
        case .object(let members, _):
            var seen: [String: LocatedJSON.Position] = [:]
            var problems: [PolicyApprover.Problem] = []
            for member in members {
                if let first = seen[member.key] {
                    problems.append(
                        problem(
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
    func shadowed(_ rules: [PolicyApprover.ArgumentRule], at positions: [LocatedJSON.Position])
        -> [PolicyApprover.Problem]
    {
        var problems: [PolicyApprover.Problem] = []
        for (later, rule) in rules.enumerated() {
            let covers = Set(rule.conditions)
            guard let earlier = rules[..<later].first(where: { Set($0.conditions).isSubset(of: covers) }) else {
                continue
            }
            let name = earlier.source.split(separator: " (").first.map(String.init) ?? "an earlier rule"
            problems.append(
                problem(
                    .warning, at: positions[later], "this rule can never match: \(name) matches every call it would"))
        }
        return problems
    }
}
