import Foundation
import Testing

@testable import ResolveKitTools

/// Argument rules: each condition kind, first match, defaults, and the load errors at their positions.
struct PolicyRuleTests {
    static func call(_ name: String, _ arguments: JSONValue) -> PendingToolCall {
        PendingToolCall(
            callID: "c", turnID: "t", functionName: name, arguments: arguments, humanDescription: "",
            requiresApproval: true, timeoutSeconds: 30, receivedAt: .zero)
    }

    /// Functions with the schemas the policies below name.
    struct ReadLog: AnyResolveKitFunction {
        static let resolveKitName = "read_log"
        static let resolveKitDescription = "Reads a log."
        static let resolveKitParametersSchema: JSONObject = [
            "type": "object",
            "properties": [
                "path": ["type": "string"], "lines": ["type": "integer"], "level": ["type": "string"],
                "options": ["type": "object", "properties": ["follow": ["type": "boolean"]]],
            ],
        ]
        static func invoke(arguments: JSONObject, context: ResolveKitFunctionContext) async throws -> JSONValue { nil }
    }

    static let registry = try! ResolveKitRegistry(functions: [ReadLog.self], functionPacks: [])

    static func policy(_ text: String) throws -> PolicyApprover {
        try PolicyApprover(jsonBytes: Array(text.utf8), sourceName: "p.json", functions: registry)
    }

    static func action(_ condition: String, _ arguments: JSONValue) throws -> PolicyApprover.Rule {
        let policy = try policy(
            #"{"default": "ask", "functions": {"read_log": {"rules": [{"if": \#(condition), "then": "allow"}], "default": "deny"}}}"#
        )
        return policy.verdict(for: call("read_log", arguments)).action
    }

    @Test(
        arguments: [
            (#"{"$.level": {"equals": "info"}}"#, ["level": "info"], ["level": "debug"]),
            (#"{"$.level": {"oneOf": ["info", "warn"]}}"#, ["level": "warn"], ["level": "error"]),
            (#"{"$.path": {"prefix": "/var/log/"}}"#, ["path": "/var/log/syslog"], ["path": "/etc/passwd"]),
            (#"{"$.path": {"glob": "/var/log/*.log"}}"#, ["path": "/var/log/app.log"], ["path": "/var/log/a/b.log"]),
            (#"{"$.level": {"regex": "in(fo|spect)"}}"#, ["level": "inspect"], ["level": "info2"]),
            (#"{"$.lines": {"range": {"min": 1, "max": 200}}}"#, ["lines": 200], ["lines": 201]),
            (#"{"$.lines": {"range": {"max": 10}}}"#, ["lines": -5], ["lines": "5"]),
            (#"{"$.options.follow": {"equals": false}}"#, ["options": ["follow": false]], ["options": [:]]),
            (
                #"{"$.path": {"prefix": "/var/"}, "$.lines": {"range": {"max": 5}}}"#, ["path": "/var/x", "lines": 5],
                ["path": "/var/x"]
            ),
        ] as [(String, JSONValue, JSONValue)])
    func eachConditionKindAllowsWhatItShouldAndNothingElse(condition: String, matching: JSONValue, other: JSONValue)
        throws
    {
        #expect(try Self.action(condition, matching) == .allow)
        #expect(try Self.action(condition, other) == .deny)
    }

    @Test func belowResolvesSymbolicLinksAndRefusesEscapes() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("policy-below-\(UUID())").path
        try FileManager.default.createDirectory(atPath: root + "/logs", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: root + "/logs2", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: root + "/logs/escape", withDestinationPath: "/etc")
        try Data("x".utf8).write(to: URL(fileURLWithPath: root + "/logs/app.log"))
        defer { try? FileManager.default.removeItem(atPath: root) }
        let condition = #"{"$.path": {"below": "\#(root)/logs"}}"#
        #expect(try Self.action(condition, ["path": .string(root + "/logs/app.log")]) == .allow)
        #expect(try Self.action(condition, ["path": .string(root + "/logs")]) == .allow)
        #expect(try Self.action(condition, ["path": .string(root + "/logs/escape/passwd")]) == .deny)
        #expect(try Self.action(condition, ["path": .string(root + "/logs/../logs2/x")]) == .deny)
        #expect(try Self.action(condition, ["path": .string(root + "/logs2/x")]) == .deny)
        #expect(try Self.action(condition, ["path": .string(root + "/logs/new/app.log")]) == .allow)
        #expect(try Self.action(condition, ["path": .string(root + "/logs/escape/new-file")]) == .deny)
        try FileManager.default.createSymbolicLink(
            atPath: root + "/logs/dangling", withDestinationPath: "/nonexistent-rk")
        #expect(try Self.action(condition, ["path": .string(root + "/logs/dangling")]) == .deny)
        #expect(try Self.action(condition, ["path": .string(root + "/logs/./app.log")]) == .allow)
        #expect(try Self.action(condition, ["path": "logs/app.log"]) == .deny)
        #expect(try Self.action(condition, ["path": 42]) == .deny)
    }

    @Test func theFirstMatchingRuleWinsThenTheFunctionsDefaultThenThePolicys() throws {
        let policy = try Self.policy(
            #"""
            {"default": "ask", "functions": {"read_log": {"rules": [
                {"if": {"$.path": {"glob": "/var/log/*.gz"}}, "then": "deny", "message": "Compressed logs cannot be read."},
                {"if": {"$.path": {"prefix": "/var/log/"}}, "then": "allow"}
            ], "default": "deny"}}}
            """#)
        let compressed = policy.verdict(for: Self.call("read_log", ["path": "/var/log/a.gz"]))
        #expect(compressed.action == .deny && compressed.message == "Compressed logs cannot be read.")
        #expect(compressed.source == "read_log rule 1 (p.json:2:5)")
        #expect(
            policy.verdict(for: Self.call("read_log", ["path": "/var/log/a"])).source == "read_log rule 2 (p.json:3:5)")
        #expect(
            policy.verdict(for: Self.call("read_log", ["path": "/etc/a"]))
                == .init(action: .deny, source: "read_log default"))
        #expect(policy.verdict(for: Self.call("other", [:])).action == .ask)
        #expect(policy.denies(Self.call("read_log", ["path": "/var/log/a.gz"])))
    }

    @Test func aDenyRulesMessageIsWhatTheModelIsToldAndTheRuleIsNamed() async throws {
        let policy = try Self.policy(
            #"{"functions": {"read_log": {"rules": [{"then": "deny", "message": "Not here."}]}}}"#)
        let request = ToolApprovalRequest(
            batchID: 1, calls: [.init(call: Self.call("read_log", [:]), timeRemaining: .seconds(9))], sessionID: "s")
        let decision = await policy.decide(request).decision(for: "c")
        #expect(decision.verdict == .decline(reason: "Not here."))
        #expect(decision.decider == .policy(rule: "read_log rule 1 (p.json:1:39)"))
    }

    @Test func theShorthandStillWorks() throws {
        let policy = try Self.policy(#"{"default": "deny", "functions": {"read_log": "allow"}}"#)
        #expect(policy.verdict(for: Self.call("read_log", [:])).action == .allow)
        #expect(policy.rule(for: "read_log") == .allow)
    }

    @Test(arguments: [
        (
            #"{"functions": {"read_logs": "allow"}}"#,
            "p.json:1:16: error: unknown function read_logs; the functions are read_log"
        ),
        (
            #"{"functions": {"read_log": {"rules": [{"if": {"$.pth": {"equals": 1}}, "then": "allow"}]}}}"#,
            "p.json:1:47: error: unknown argument path $.pth for read_log"
        ),
        (
            #"{"functions": {"read_log": {"rules": [{"if": {"path": {"equals": 1}}, "then": "allow"}]}}}"#,
            "p.json:1:47: error: path is not an argument path; write $.name or $.name.field"
        ),
        (
            #"{"functions": {"read_log": {"rules": [{"if": {"$.level": {"regex": "(unclosed"}}, "then": "allow"}]}}}"#,
            "p.json:1:68: error: the regex (unclosed does not compile"
        ),
        (
            #"{"functions": {"read_log": {"rules": [{"if": {"$.lines": {"range": {"min": 9, "max": 1}}}, "then": "allow"}]}}}"#,
            "p.json:1:68: error: the range's min 9 is above its max 1"
        ),
        (
            #"{"functions": {"read_log": {"rules": [{"if": {"$.level": {"range": {"min": 1}}}, "then": "allow"}]}}}"#,
            "p.json:1:68: error: range applies to numbers, but the argument is a string"
        ),
        (
            #"{"functions": {"read_log": {"rules": [{"if": {"$.level": {"like": "x"}}, "then": "allow"}]}}}"#,
            "p.json:1:59: error: unknown condition like; use one of equals, oneOf, prefix, glob, regex, range, below"
        ),
        (
            #"{"functions": {"read_log": {"rules": [{"if": {"$.path": {"below": "var/log"}}, "then": "allow"}]}}}"#,
            "p.json:1:67: error: below needs an absolute root path, but it is not an absolute path"
        ),
        (
            #"{"functions": {"read_log": {"rules": [{"then": "maybe"}]}}}"#,
            #"p.json:1:48: error: then must be "allow", "deny" or "ask""#
        ),
        (
            "{\n  \"default\": \"ask\",\n  \"functions\": {\n    \"read_log\": {\"rules\": [{\"if\": {}}]}\n  }\n}",
            #"p.json:4:28: error: the rule has no "then" ("allow", "deny" or "ask")"#
        ),
        (#"{"default": "ask""#, "p.json:1:18: error: not valid JSON"),
    ])
    func loadErrorsAreReportedAtTheirPosition(text: String, expected: String) {
        let problems = PolicyApprover.check(jsonBytes: Array(text.utf8), sourceName: "p.json", functions: Self.registry)
        #expect(problems.contains { $0.description.hasPrefix(expected) }, "\(problems)")
        #expect(throws: ResolveKitError.self) { try Self.policy(text) }
    }

    /// A misspelled argument path does not hide the mistake in its condition.
    @Test func anUnknownPathsConditionIsStillChecked() {
        let text = #"{"functions": {"read_log": {"rules": [{"if": {"$.pth": {"below": "var/log"}}, "then": "allow"}]}}}"#
        let problems = PolicyApprover.check(jsonBytes: Array(text.utf8), sourceName: "p.json", functions: Self.registry)
        #expect(problems.map(\.description).contains { $0.contains("unknown argument path $.pth") })
        #expect(problems.map(\.description).contains { $0.contains("below needs an absolute root path") })
    }

    @Test func everyErrorIsReportedAtOnce() {
        let text = #"{"default": "sometimes", "functions": {"nope": "allow", "read_log": "never"}}"#
        let problems = PolicyApprover.check(jsonBytes: Array(text.utf8), sourceName: "p.json", functions: Self.registry)
        #expect(problems.map(\.line) == [1, 1, 1])
        #expect(problems.map(\.column) == [13, 40, 69])
    }

    /// Found by the PolicyFile fuzzer: the errors followed the object's dictionary order, which differs between
    /// equal objects.
    @Test func aConditionObjectsErrorsComeInOneOrderWhateverItsMembersOrder() {
        let paths = ["$.a", "$.b", "$.c", "$.d", "$.e"]
        let expected =
            "Invalid condition for read_log: "
            + paths.map { "unknown condition like_\($0.suffix(1)); use one of " + Self.kinds }.joined(separator: "; ")
        for round in 0..<10 {
            var object: JSONObject = [:]
            for path in round.isMultiple(of: 2) ? paths : paths.reversed() {
                object[path] = ["like_\(path.suffix(1))": "x"]
            }
            let error = #expect(throws: ResolveKitError.self) {
                try PolicyApprover.conditions(.object(object), for: "read_log")
            }
            #expect(error?.message == expected)
        }
    }

    static let kinds = "equals, oneOf, prefix, glob, regex, range, below"

    @Test func aRuleThatCanNeverMatchIsAWarningNotAnError() throws {
        let policy = try Self.policy(
            #"""
            {"functions": {"read_log": {"rules": [
              {"if": {"$.path": {"prefix": "/var/"}}, "then": "allow"},
              {"if": {"$.path": {"prefix": "/var/"}, "$.lines": {"range": {"max": 5}}}, "then": "deny"},
              {"then": "ask"},
              {"if": {"$.level": {"equals": "x"}}, "then": "deny"}
            ]}}}
            """#)
        #expect(
            policy.warnings.map(\.description) == [
                "p.json:3:3: warning: this rule can never match: read_log rule 1 matches every call it would",
                "p.json:5:3: warning: this rule can never match: read_log rule 3 matches every call it would",
            ])
    }
}
