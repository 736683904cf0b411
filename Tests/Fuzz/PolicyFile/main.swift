// libFuzzer target: loading an approval policy file (Sources/ResolveKitTools/Approval/Policy: LocatedJSON,
// PolicyLoader, PolicyLoader+Conditions, PolicyApprover+Loading) and deciding calls with what loaded.
//
// Not part of the SwiftPM build: Tests/Fuzz/run-fuzzers.sh compiles Sources/ResolveKitCore and
// Sources/ResolveKitTools with coverage and ASan and links this harness against them. The input is the policy
// file's bytes; it is checked without and with a registry of served functions. Properties:
// - loading never crashes, whatever the bytes;
// - every problem is at a line:column inside the input, problems come in file order, and a problem of a policy
//   that is valid JSON points at the value or member name it is about (its first character);
// - the same input gives the same problems each time, and the `"if"` objects of its rules read through
//   `PolicyApprover.conditions` give the same conditions or the same error when their members are inserted in
//   another order (dictionary order is seeded per instance);
// - the throwing initialiser fails exactly when `check` reports an error, with one line per error; a policy that
//   loads keeps `check`'s warnings;
// - a loaded policy decides calls with arbitrary JSON arguments (every value of the file, and values probing
//   each condition at its path) without crashing, the same way twice; the verdict names the first matching rule
//   (whose position is a `{` of the file), else the function's rule; `decide` agrees with `verdict`;
// - a loaded rule's conditions, written as an `"if"` object, read back to the same conditions (remembered
//   decisions are stored that way).

import Dispatch
import ResolveKitTools
import Synchronization

/// libFuzzer's entry point: runs one input; a violated property stops the process with `fatalError`.
///
/// - Parameters:
///   - start: The input bytes.
///   - count: How many.
/// - Returns: Always 0 (libFuzzer reserves other values).
@_cdecl("LLVMFuzzerTestOneInput")
public func policyFileFuzzTarget(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: start, count: count))
    let text = InputText(bytes)
    let document = try? JSONValue(parsing: bytes)
    for functions in [nil, FuzzFunctions.registry] {
        let problems = PolicyApprover.check(jsonBytes: bytes, sourceName: "p.json", functions: functions)
        check(
            PolicyApprover.check(jsonBytes: bytes, sourceName: "p.json", functions: functions) == problems,
            "checking the same bytes twice gave different problems")
        check(
            zip(problems, problems.dropFirst()).allSatisfy { ($0.line, $0.column) <= ($1.line, $1.column) },
            "problems are not in file order: \(problems)")
        check(document != nil || problems.count == 1, "invalid JSON got \(problems.count) problems, not one")
        for problem in problems { text.checkPosition(of: problem, isJSON: document != nil) }
        if let document { checkConditionObjects(in: document, functions: functions) }
        load(bytes, document: document, functions: functions, problems: problems, text: text)
    }
    return 0
}

/// The throwing initialiser against `check`, then every decision the loaded policy makes.
private func load(
    _ bytes: [UInt8], document: JSONValue?, functions: ResolveKitRegistry?, problems: [PolicyApprover.Problem],
    text: InputText
) {
    let errors = problems.filter { $0.severity == .error }
    let policy: PolicyApprover
    do {
        policy = try PolicyApprover(jsonBytes: bytes, sourceName: "p.json", functions: functions)
    } catch {
        check(!errors.isEmpty, "loading threw, but check found no error: \(error.message)")
        check(error.code == .invalidConfiguration, "loading threw \(error.code), not invalidConfiguration")
        let expected = "Invalid approval policy:\n" + errors.map(\.description).joined(separator: "\n")
        check(error.message == expected, "the thrown message is not check's errors: \(error.message)")
        return
    }
    check(errors.isEmpty, "a policy with errors loaded: \(errors)")
    check(policy.warnings == problems, "the loaded policy's warnings are not check's: \(policy.warnings)")
    guard let document else { fatalError("PolicyFile fuzz property violated: a policy loaded from invalid JSON") }
    let calls = Probes.calls(for: policy, document: document)
    var verdicts: [ToolCallID: PolicyApprover.Verdict] = [:]
    for call in calls {
        let verdict = policy.verdict(for: call)
        check(policy.verdict(for: call) == verdict, "the same call was decided two ways: \(call.arguments)")
        check(policy.denies(call) == (verdict.action == .deny), "denies disagrees with the verdict")
        checkSource(of: verdict, for: call, in: policy, text: text)
        verdicts[call.callID] = verdict
    }
    checkDecide(policy, calls: calls, verdicts: verdicts)
    for (name, functionPolicy) in policy.functionPolicies {
        for rule in functionPolicy.rules where !rule.conditions.isEmpty {
            let json = PolicyApprover.ArgumentRule.conditionsJSON(rule.conditions)
            do {
                let back = try PolicyApprover.conditions(json, for: name, functions: functions)
                check(Set(back) == Set(rule.conditions), "\(rule.source): its conditions read back differently")
            } catch {
                fatalError("PolicyFile fuzz property violated: \(rule.source) does not read back: \(error.message)")
            }
        }
    }
}

/// The verdict is the first matching rule of the call's function, or else what the function's rule says.
private func checkSource(
    of verdict: PolicyApprover.Verdict, for call: PendingToolCall, in policy: PolicyApprover, text: InputText
) {
    let rules = policy.functionPolicies[call.functionName]?.rules ?? []
    guard let first = rules.firstIndex(where: { $0.matches(call.arguments) }) else {
        check(verdict.action == policy.rule(for: call.functionName), "no rule matched, yet \(verdict) is not the rule")
        check(verdict.message == nil, "no rule matched, yet the verdict has a message")
        return
    }
    let rule = rules[first]
    check(
        verdict == .init(action: rule.action, message: rule.message, source: rule.source),
        "\(verdict.source) decided, not the first matching rule \(rule.source)")
    let prefix = "\(call.functionName) rule \(first + 1) (p.json:"
    check(rule.source.hasPrefix(prefix) && rule.source.hasSuffix(")"), "the rule names itself \(rule.source)")
    let place = rule.source.dropFirst(prefix.count).dropLast().split(separator: ":").compactMap { Int($0) }
    check(place.count == 2, "the rule's position is not line:column: \(rule.source)")
    check(text.character(line: place[0], column: place[1]) == "{", "\(rule.source) does not point at its {")
}

/// `decide` gives each call what `verdict` said, attributed to the rule that said it.
private func checkDecide(
    _ policy: PolicyApprover, calls: [PendingToolCall], verdicts: [ToolCallID: PolicyApprover.Verdict]
) {
    let request = ToolApprovalRequest(
        batchID: 1, calls: calls.map { .init(call: $0, timeRemaining: .seconds(30)) }, sessionID: "s")
    let decided = waitFor { await policy.decide(request) }
    for call in calls {
        guard let verdict = verdicts[call.callID] else { continue }
        let decision = decided.decision(for: call.callID)
        check(decision.decider == .policy(rule: verdict.source), "decide names \(String(describing: decision.decider))")
        switch verdict.action {
        case .allow: check(decision.verdict == .approve, "an allowed call was not approved")
        case .deny:
            check(
                decision.verdict == .decline(reason: verdict.message ?? "Denied by policy"),
                "a denied call was not declined with the rule's message")
        case .ask: check(!decision.approves, "an ask call was approved with no fallback")
        }
    }
}

/// Every rule's `"if"` object read through `PolicyApprover.conditions` as given and with its members inserted in
/// reverse order: the same conditions, or the same error message.
private func checkConditionObjects(in document: JSONValue, functions: ResolveKitRegistry?) {
    for (name, entry) in document["functions"]?.objectValue ?? [:] {
        for rule in entry["rules"]?.arrayValue?.prefix(16) ?? [] {
            guard let ifObject = rule["if"], ifObject.objectValue != nil else { continue }
            func read(_ value: JSONValue) -> Result<Set<PolicyApprover.ArgumentRule.Conditioned>, ResolveKitError> {
                Result { () throws(ResolveKitError) in
                    Set(try PolicyApprover.conditions(value, for: name, functions: functions))
                }
            }
            let first = read(ifObject)
            let again = read(rebuilt(ifObject, reversed: true))
            switch (first, again) {
            case (.success(let one), .success(let other)): check(one == other, "conditions depend on member order")
            case (.failure(let one), .failure(let other)):
                check(
                    one.message == other.message, "the error depends on member order:\n\(one.message)\n\(other.message)"
                )
            default: fatalError("PolicyFile fuzz property violated: an if object reads or fails by member order")
            }
        }
    }
}

/// The same value with every object rebuilt, its members inserted in sorted or reverse sorted order.
func rebuilt(_ value: JSONValue, reversed: Bool) -> JSONValue {
    switch value {
    case .object(let members):
        var copy: JSONObject = [:]
        let keys = members.keys.sorted()
        for key in reversed ? keys.reversed() : keys { copy[key] = rebuilt(members[key]!, reversed: reversed) }
        return .object(copy)
    case .array(let elements): return .array(elements.map { rebuilt($0, reversed: reversed) })
    default: return value
    }
}

/// Runs `body` on the cooperative pool and blocks this (libFuzzer's) thread until it returns.
func waitFor<T: Sendable>(_ body: @escaping @Sendable () async -> T) -> T {
    let result = Mutex<T?>(nil)
    let done = DispatchSemaphore(value: 0)
    Task {
        let value = await body()
        result.withLock { $0 = value }
        done.signal()
    }
    done.wait()
    return result.withLock { $0! }
}

func check(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError("PolicyFile fuzz property violated: \(message())") }
}
