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
    public static func check(jsonBytes: [UInt8], sourceName: String, functions: ResolveKitRegistry? = nil) -> [Problem]
    {
        PolicyLoader(file: sourceName, functions: functions).load(jsonBytes).problems
    }

    /// Reads a rule's `"if"` object (`{"$.path": {"below": "/var/log/nginx"}}`) for `function`, as a policy file
    /// would, checked against the function's schema when `functions` is given.
    /// - Throws: ``ResolveKitError`` with ``ResolveKitError/Code/invalidConfiguration`` listing what is wrong.
    public static func conditions(
        _ ifObject: JSONValue, for function: String, functions: ResolveKitRegistry? = nil
    ) throws(ResolveKitError) -> [ArgumentRule.Conditioned] {
        let text = JSONValue.object(["functions": .object([function: ["rules": [["if": ifObject, "then": "allow"]]]])])
        // Sorted, so the errors (in text order) and the conditions come in one order, not the dictionary's.
        let loaded = PolicyLoader(file: "the condition", functions: functions).load(
            text.serializedBytes(options: .sortedKeys))
        guard loaded.errors.isEmpty, let rule = loaded.functionPolicies[function]?.rules.first else {
            let reasons = loaded.errors.map(\.message).joined(separator: "; ")
            throw ResolveKitError(.invalidConfiguration, "Invalid condition for \(function): \(reasons)")
        }
        return rule.conditions
    }

    /// Checks a policy file without building an approver (what `--check-policy` prints).
    /// - Throws: ``ResolveKitError`` with ``ResolveKitError/Code/invalidConfiguration`` when the file cannot be read.
    public static func check(contentsOf url: URL, functions: ResolveKitRegistry? = nil) throws(ResolveKitError)
        -> [Problem]
    {
        guard let data = FileManager.default.contents(atPath: url.path) else {
            let reason = FileManager.default.fileExists(atPath: url.path) ? "cannot be read" : "does not exist"
            throw ResolveKitError(.invalidConfiguration, "The policy file \(url.path) \(reason)")
        }
        return check(jsonBytes: [UInt8](data), sourceName: url.path, functions: functions)
    }
}
