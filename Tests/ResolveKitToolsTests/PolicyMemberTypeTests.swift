import Foundation
import Testing

@testable import ResolveKitTools

/// A policy's members of the wrong type or name, each at its position, and how every error reaches the thrown
/// message together.
struct PolicyMemberTypeTests {
    static func problems(_ text: String) -> [String] {
        PolicyApprover.check(jsonBytes: Array(text.utf8), sourceName: "p.json", functions: PolicyRuleTests.registry)
            .map(\.description)
    }

    @Test(arguments: [
        (
            #"{"functions": {"read_log": {"rules": [{"if": {"$.options.x": {"equals": 1}}, "then": "allow"}]}}}"#,
            "p.json:1:47: error: unknown argument path $.options.x for read_log"
        ),
        (
            #"{"functions": {"read_log": {"rules": [{"if": {"$.lines": {"range": {"min": "1"}}}, "then": "allow"}]}}}"#,
            #"p.json:1:68: error: range needs {"min": number, "max": number} (either may be left out)"#
        ),
        (
            #"{"functions": {"read_log": {"rules": [{"if": {"$.lines": {"range": {}}}, "then": "allow"}]}}}"#,
            #"p.json:1:68: error: range needs {"min": number, "max": number} (either may be left out)"#
        ),
        (
            #"{"functions": {"read_log": {"rules": [{"then": "deny", "message": 5}]}}}"#,
            "p.json:1:67: error: message must be a string"
        ),
        (
            #"{"functions": {"read_log": {"rules": {"then": "deny"}}}}"#,
            "p.json:1:38: error: rules must be an array of rules"
        ),
        (#"{"functions": ["read_log"]}"#, "p.json:1:15: error: functions must be an object of function name to rule"),
        (
            #"{"functions": {"read_log": {"rules": [{"if": {"$.path": {"prefix": 7}}, "then": "allow"}]}}}"#,
            "p.json:1:68: error: prefix needs a string"
        ),
        (
            #"{"functions": {"read_log": {"rules": ["allow"]}}}"#,
            #"p.json:1:39: error: a rule must be an object with "then" and optionally "if" and "message""#
        ),
        (
            #"{"functions": {"read_log": {"rules": [{"if": {"$.path": "/var"}, "then": "allow"}]}}}"#,
            #"p.json:1:57: error: the condition on $.path must be an object such as {"equals": …}"#
        ),
        (
            #"{"functions": {"read_log": {"rules": [{"if": ["$.path"], "then": "allow"}]}}}"#,
            "p.json:1:46: error: if must be an object of argument path to condition"
        ),
        (
            #"{"functions": {"read_log": {"rules": [{"if": {"$.level": {"oneOf": "info"}}, "then": "allow"}]}}}"#,
            "p.json:1:68: error: oneOf needs a non-empty array"
        ),
        (
            #"{"functions": {"read_log": {"rules": [], "fallback": "deny"}}}"#,
            #"p.json:1:42: error: unknown member "fallback" in functions.read_log; use "rules" and "default""#
        ),
        (
            #"{"functions": {"read_log": {"rules": [{"then": "deny", "because": "x"}]}}}"#,
            #"p.json:1:56: error: unknown member "because" in a rule; use "if", "then" and "message""#
        ),
        (#"{"default": 1}"#, #"p.json:1:13: error: default must be "allow", "deny" or "ask""#),
        (
            #"{"defaults": "ask"}"#,
            #"p.json:1:2: error: unknown member "defaults"; a policy has "default" and "functions""#
        ),
        (
            #"{"functions": {"read_log": 5}}"#,
            #"p.json:1:28: error: functions.read_log must be "allow", "deny" or "ask""#
        ),
        (
            #"{"functions": {"read_log": "allow", "read_log": "deny"}}"#,
            #"p.json:1:37: error: "read_log" is given twice in this object (first at 1:16)"#
        ),
        ("[]", "p.json:1:1: error: the policy must be a JSON object"),
        // At the value, not at 1:1, when blank lines come first (found by the PolicyFile fuzzer).
        (" \n  \"args\"", "p.json:2:3: error: the policy must be a JSON object"),
        // Columns count characters, not UTF-8 bytes.
        (
            #"{"functions": {"read_log": {"rules": [{"then": "deny", "message": "Ünïcödé ✓"}, {"then": "maybe"}]}}}"#,
            #"p.json:1:90: error: then must be "allow", "deny" or "ask""#
        ),
    ])
    func aMemberOfTheWrongTypeOrNameIsAnErrorAtItsPosition(text: String, expected: String) {
        let problems = Self.problems(text)
        #expect(problems == [expected])
    }

    @Test func theThrownErrorListsEveryErrorLineAndNoWarning() throws {
        let text = """
            {
              "default": "sometimes",
              "functions": {
                "nope": "allow",
                "read_log": { "rules": [
                  { "then": "allow" },
                  { "if": { "$.lines": { "range": { "max": 2 } } }, "then": "deny" },
                  { "if": { "$.lines": { "range": { "min": 3, "max": 2 } } }, "then": "deny" }
                ] }
              }
            }
            """
        let error = #expect(throws: ResolveKitError.self) {
            try PolicyApprover(jsonBytes: Array(text.utf8), sourceName: "p.json", functions: PolicyRuleTests.registry)
        }
        #expect(error?.code == .invalidConfiguration)
        let lines = error?.message.split(separator: "\n").map(String.init) ?? []
        #expect(lines.count == 4, "\(lines)")
        #expect(
            lines.dropFirst().map { $0.prefix(while: { $0 != " " }) } == [
                "p.json:2:14:", "p.json:4:5:", "p.json:8:39:",
            ])
        #expect(!lines.contains { $0.contains("warning") })
        let problems = PolicyApprover.check(
            jsonBytes: Array(text.utf8), sourceName: "p.json", functions: PolicyRuleTests.registry)
        #expect(problems.filter { $0.severity == .warning }.map(\.line) == [7])
    }

    @Test func anAbsentArgumentNeverSatisfiesACondition() throws {
        let policy = try PolicyApprover(
            jsonBytes: Array(
                #"{"default": "ask", "functions": {"read_log": {"rules": [{"if": {"$.level": {"oneOf": [null, "x"]}}, "then": "deny"}]}}}"#
                    .utf8),
            functions: PolicyRuleTests.registry)
        #expect(policy.verdict(for: PolicyRuleTests.call("read_log", [:])).action == .ask)
        #expect(policy.verdict(for: PolicyRuleTests.call("read_log", ["level": nil])).action == .deny)
    }
}
