import Foundation
import Glibc

extension PolicyApprover {
    /// A test on one argument value.
    public enum Condition: Sendable, Hashable {
        /// The value equals this JSON value.
        case equals(JSONValue)
        /// The value equals one of these.
        case oneOf([JSONValue])
        /// The value is a string starting with this.
        case prefix(String)
        /// The value is a string matching this shell pattern (`fnmatch`, `*` does not cross `/`).
        case glob(String)
        /// The value is a string this regular expression matches in whole.
        case regex(String)
        /// The value is a number within these bounds (inclusive; a missing bound is open).
        case range(min: Double?, max: Double?)
        /// The value is a path at or below this root: absolute, without `..`, symbolic links resolved, compared
        /// component by component (the Linux pack's confinement rules). A path that does not exist yet is judged
        /// by its deepest existing folder, resolved, so a linked folder cannot lead a new name out of the root.
        case below(String)

        /// The condition as a policy file writes it: `{"below": "/var/log"}`.
        public var json: JSONObject {
            switch self {
            case .equals(let value): ["equals": value]
            case .oneOf(let values): ["oneOf": .array(values)]
            case .prefix(let text): ["prefix": .string(text)]
            case .glob(let text): ["glob": .string(text)]
            case .regex(let text): ["regex": .string(text)]
            case .range(let low, let high):
                [
                    "range": .object(
                        ["min": low.map(JSONValue.number), "max": high.map(JSONValue.number)].compactMapValues { $0 })
                ]
            case .below(let root): ["below": .string(root)]
            }
        }

        /// Whether `value` satisfies the condition.
        public func holds(for value: JSONValue) -> Bool {
            switch self {
            case .equals(let expected): return value == expected
            case .oneOf(let choices): return choices.contains(value)
            case .prefix(let prefix): return value.stringValue?.hasPrefix(prefix) == true
            case .glob(let pattern):
                guard let text = value.stringValue else { return false }
                return fnmatch(pattern, text, FNM_PATHNAME) == 0
            case .regex(let pattern):
                guard let text = value.stringValue, let regex = try? Regex(pattern) else { return false }
                return (try? regex.wholeMatch(in: text)) != nil
            case .range(let low, let high):
                guard case .number(let number) = value else { return false }
                return (low.map { number >= $0 } ?? true) && (high.map { number <= $0 } ?? true)
            case .below(let root):
                guard let path = value.stringValue else { return false }
                return PathConfinementRules.isBelow(path, root: root)
            }
        }
    }

    /// One rule of a function: when every condition holds, `action` (and, for a deny, `message` for the model).
    public struct ArgumentRule: Sendable, Hashable {
        /// Conditions by argument path (`$.path`, `$.options.level`); all must hold. None: always matches.
        public var conditions: [Conditioned]
        /// What to do when it matches.
        public var action: Rule
        /// What the model is told when it denies.
        public var message: String?
        /// Where it was written, e.g. `read_log_tail rule 2 (policy.json:7:9)`.
        public var source: String

        /// A condition on the value at an argument path.
        public struct Conditioned: Sendable, Hashable {
            /// `$.name` or `$.a.b`.
            public var path: String
            /// The test.
            public var condition: Condition

            /// Creates a condition on `path`.
            public init(path: String, condition: Condition) {
                self.path = path
                self.condition = condition
            }
        }

        /// Creates a rule.
        public init(conditions: [Conditioned], action: Rule, message: String? = nil, source: String) {
            self.conditions = conditions
            self.action = action
            self.message = message
            self.source = source
        }

        /// Whether every condition holds for `arguments`; a condition on an absent path does not hold.
        public func matches(_ arguments: JSONValue) -> Bool {
            Self.all(conditions, holdFor: arguments)
        }

        /// Whether every one of `conditions` holds for `arguments`.
        static func all(_ conditions: [Conditioned], holdFor arguments: JSONValue) -> Bool {
            conditions.allSatisfy { conditioned in
                value(at: conditioned.path, in: arguments).map(conditioned.condition.holds) ?? false
            }
        }

        /// Conditions as a rule's `"if"` object: `{"$.path": {"below": "/var/log"}}`.
        public static func conditionsJSON(_ conditions: [Conditioned]) -> JSONValue { ifObject(conditions) }

        static func ifObject(_ conditions: [Conditioned]) -> JSONValue {
            var object: JSONObject = [:]
            for conditioned in conditions {
                var tests = object[conditioned.path]?.objectValue ?? [:]
                tests.merge(conditioned.condition.json) { $1 }
                object[conditioned.path] = .object(tests)
            }
            return .object(object)
        }

        /// The value at `$.a.b` in `arguments`, if present.
        static func value(at path: String, in arguments: JSONValue) -> JSONValue? {
            var value: JSONValue? = arguments
            for step in path.dropFirst(2).split(separator: ".") { value = value?.objectValue?[String(step)] }
            return value
        }
    }

    /// A function's ordered rules and its own default.
    public struct FunctionPolicy: Sendable, Hashable {
        /// Tried in order; the first match decides.
        public var rules: [ArgumentRule]
        /// When no rule matches; `nil` falls back to the policy's default.
        public var defaultRule: Rule?

        /// Creates a function policy.
        public init(rules: [ArgumentRule], defaultRule: Rule? = nil) {
            self.rules = rules
            self.defaultRule = defaultRule
        }
    }

    /// What the policy says about one call, and which rule said it.
    public struct Verdict: Sendable, Hashable {
        /// Allow, deny or ask.
        public var action: Rule
        /// What the model is told when it denies; `nil` for the default message.
        public var message: String?
        /// The rule that decided: `read_log_tail rule 2 (policy.json:7:9)`, `read_log_tail default`,
        /// `read_log_tail` (the shorthand) or `default` (the policy's).
        public var source: String

        /// Creates a verdict.
        public init(action: Rule, message: String? = nil, source: String) {
            self.action = action
            self.message = message
            self.source = source
        }
    }

    /// The first matching rule of the call's function, else its default, else the shorthand, else the policy's
    /// default.
    public func verdict(for call: PendingToolCall) -> Verdict {
        let name = call.functionName
        if let policy = functionPolicies[name] {
            if let rule = policy.rules.first(where: { $0.matches(call.arguments) }) {
                return Verdict(action: rule.action, message: rule.message, source: rule.source)
            }
            if let fallback = policy.defaultRule { return Verdict(action: fallback, source: "\(name) default") }
        }
        if let rule = rules[name] { return Verdict(action: rule, source: name) }
        return Verdict(action: defaultRule, source: "default")
    }
}
