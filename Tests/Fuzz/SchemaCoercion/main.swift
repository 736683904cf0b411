// libFuzzer target: argument validation and coercion (Sources/ResolveKitCore/Schema and Coercion).
//
// Not part of the SwiftPM build: Tests/Fuzz/run-fuzzers.sh compiles Sources/ResolveKitCore with coverage and ASan
// into a static library and links this harness against it. The input is JSON `{"schema": {…}, "args": …}`; other
// inputs are dropped early (the seed corpus gives the fuzzer that shape). Properties checked on every input:
// - `JSONSchema(jsonObject:)`, `coerce`, `validate` and every `ResolveKitArgumentReader` read never crash;
// - a schema read back from its own `jsonObject` is equal to it;
// - coercion is idempotent, and validate(coerce(x)) gives the same violations every time, also for an equal
//   input whose objects were built afresh (dictionary iteration order differs between instances);
// - reading the same arguments twice reports the same problems.

import Foundation
import ResolveKitCore

/// libFuzzer's entry point: runs one input; a violated property stops the process with `fatalError`.
///
/// - Parameters:
///   - start: The input bytes.
///   - count: How many.
/// - Returns: Always 0 (libFuzzer reserves other values).
@_cdecl("LLVMFuzzerTestOneInput")
public func schemaCoercionFuzzTarget(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    guard let input = try? JSONValue(parsing: UnsafeBufferPointer(start: start, count: count)),
        let schemaObject = input["schema"]?.objectValue, let args = input["args"]
    else { return 0 }
    guard let schema = try? JSONSchema(jsonObject: schemaObject) else { return 0 }
    check((try? JSONSchema(jsonObject: schema.jsonObject)) == schema, "schema does not survive jsonObject")

    let coerced = schema.coerce(args)
    check(schema.coerce(coerced) == coerced, "coercion is not idempotent")
    let violations = schema.validate(coerced)
    check(schema.validate(schema.coerce(args)) == violations, "validate(coerce(x)) is not deterministic")
    _ = schema.validate(args)

    // Equal inputs built afresh (new dictionary storage, so possibly another iteration order) give equal results.
    let otherArgs = rebuilt(args)
    let otherSchema = try? JSONSchema(jsonObject: rebuilt(.object(schemaObject)).objectValue ?? [:])
    check(otherSchema == schema, "a rebuilt schema differs")
    check(otherSchema?.validate(otherSchema?.coerce(otherArgs) ?? .null) == violations, "violations depend on storage")

    if let object = coerced.objectValue, let otherObject = schema.coerce(otherArgs).objectValue {
        let first = readEverything(object)
        check(readEverything(otherObject) == first, "argument problems depend on storage")
    }
    return 0
}

/// The same value with every object rebuilt, its members inserted in reverse sorted order.
private func rebuilt(_ value: JSONValue) -> JSONValue {
    switch value {
    case .object(let members):
        var copy: JSONObject = [:]
        for key in members.keys.sorted().reversed() { copy[key] = rebuilt(members[key]!) }
        return .object(copy)
    case .array(let elements): return .array(elements.map(rebuilt))
    default: return value
    }
}

/// Reads every member with every argument type generated code may ask for; returns the problems.
private func readEverything(_ arguments: JSONObject) -> [String] {
    var reader = ResolveKitArgumentReader(arguments)
    for name in arguments.keys.sorted() {
        _ = reader.optional(name, as: String.self)
        _ = reader.optional(name, as: Bool.self)
        _ = reader.optional(name, as: Int.self)
        _ = reader.optional(name, as: Int8.self)
        _ = reader.optional(name, as: UInt64.self)
        _ = reader.optional(name, as: Double.self)
        _ = reader.optional(name, as: Float.self)
        _ = reader.optional(name, as: Decimal.self)
        _ = reader.optional(name, as: Date.self)
        _ = reader.optional(name, as: URL.self)
        _ = reader.optional(name, as: UUID.self)
        _ = reader.optional(name, as: [Int].self)
        _ = reader.optional(name, as: Set<String>.self)
        _ = reader.optional(name, as: [String: Double].self)
        _ = reader.required(name, as: Int?.self)
    }
    _ = reader.required("absent", as: String.self)
    check(!reader.isValid, "a missing required argument was not reported")
    _ = reader.failure()
    return reader.problems
}

private func check(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError("SchemaCoercion fuzz property violated: \(message())") }
}
