import ResolveKitTools

/// The calls a loaded policy is asked about: every function it names and one it does not, each with arguments
/// made of the file's own values and of values that probe each rule's conditions at their paths.
enum Probes {
    /// The most argument values per function, and the most calls per input (to keep an input fast).
    static let perFunction = 48
    static let maxCalls = 192

    static func calls(for policy: PolicyApprover, document: JSONValue) -> [PendingToolCall] {
        var values: [JSONValue] = []
        collect(document, into: &values)
        let names = Set(policy.rules.keys).union(policy.functionPolicies.keys).sorted() + ["not_in_the_policy"]
        var calls: [PendingToolCall] = []
        for name in names {
            var arguments: [JSONValue] = [[:], .null] + values
            for rule in policy.functionPolicies[name]?.rules ?? [] {
                var all: JSONValue = [:]
                for conditioned in rule.conditions {
                    let probes = probes(conditioned.condition)
                    if let first = probes.first { place(first, at: conditioned.path, in: &all) }
                    for probe in probes {
                        var single: JSONValue = [:]
                        place(probe, at: conditioned.path, in: &single)
                        arguments.append(single)
                    }
                }
                arguments.append(all)
            }
            for value in arguments.suffix(perFunction) where calls.count < maxCalls {
                calls.append(
                    PendingToolCall(
                        callID: ToolCallID("c\(calls.count)"), turnID: "t", functionName: name, arguments: value,
                        humanDescription: "", requiresApproval: true, timeoutSeconds: 30, receivedAt: .zero))
            }
        }
        return calls
    }

    /// Every value of the document, depth first, members in sorted order (so a replay picks the same ones).
    static func collect(_ value: JSONValue, into values: inout [JSONValue]) {
        guard values.count < perFunction else { return }
        values.append(value)
        switch value {
        case .object(let members): for key in members.keys.sorted() { collect(members[key]!, into: &values) }
        case .array(let elements): for element in elements { collect(element, into: &values) }
        default: break
        }
    }

    /// Values on both sides of what a condition accepts; the first one is meant to satisfy it.
    static func probes(_ condition: PolicyApprover.Condition) -> [JSONValue] {
        switch condition {
        case .equals(let value): return [value, .string("other")]
        case .oneOf(let values): return Array(values.prefix(4))
        case .prefix(let text): return [.string(text + "x"), .string(text), .string(String(text.dropLast()))]
        case .glob(let pattern):
            let filled = pattern.replacing("*", with: "x").replacing("?", with: "y")
            return [.string(filled), .string(pattern), .number(1)]
        case .regex(let pattern): return [.string(pattern), .string(""), .bool(true)]
        case .range(let low, let high):
            let edges = [low, high, low.map { $0 - 1 }, high.map { $0 + 1 }, low?.nextDown, high?.nextUp]
            return edges.compactMap { $0 }.filter(\.isFinite).map(JSONValue.number) + [.string("1")]
        case .below(let root): return [.string(root + "/x"), .string(root), .string(root + "/../x"), .string("/")]
        }
    }

    /// Sets the value at `$.a.b` in `arguments`, making objects on the way.
    static func place(_ value: JSONValue, at path: String, in arguments: inout JSONValue) {
        let steps = path.dropFirst(2).split(separator: ".").map(String.init)
        func set(_ target: inout JSONValue, _ remaining: ArraySlice<String>) {
            guard let step = remaining.first else {
                target = value
                return
            }
            var members = target.objectValue ?? [:]
            var child = members[step] ?? [:]
            set(&child, remaining.dropFirst())
            members[step] = child
            target = .object(members)
        }
        set(&arguments, steps[...])
    }
}
