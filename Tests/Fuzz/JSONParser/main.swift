// libFuzzer target: the strict JSON parser and the serializer (Sources/ResolveKitCore/JSON).
//
// Not part of the SwiftPM build: Tests/Fuzz/run-fuzzers.sh compiles Sources/ResolveKitCore with coverage and ASan
// into a static library and links this harness against it. Properties checked on every input:
// - parsing never crashes, whatever the bytes (errors are thrown, with an offset inside the input);
// - a parsed value serializes (plain, sorted, pretty, ASCII-escaped) to text that parses back to an equal value;
// - serializing is a fixed point: serialize(parse(serialize(v))) == serialize(v) with sorted keys;
// - the byte and the String entry points agree on valid UTF-8.

import ResolveKitCore

/// libFuzzer's entry point: runs one input; a violated property stops the process with `fatalError`.
///
/// - Parameters:
///   - start: The input bytes.
///   - count: How many.
/// - Returns: Always 0 (libFuzzer reserves other values).
@_cdecl("LLVMFuzzerTestOneInput")
public func jsonParserFuzzTarget(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: start, count: count)
    let value: JSONValue
    do {
        value = try JSONValue(parsing: bytes)
    } catch {
        check(error.offset >= 0 && error.offset <= count, "error offset \(error.offset) outside the input")
        return 0
    }
    if let text = String(validating: bytes, as: UTF8.self) {
        check((try? JSONValue(parsing: text)) == value, "String and byte parsing disagree")
    }
    let optionSets: [JSONValue.SerializationOptions] = [
        [], .sortedKeys, .prettyPrinted, .escapeNonASCII, [.sortedKeys, .prettyPrinted],
    ]
    for options in optionSets {
        let text = value.serializedBytes(options: options)
        let reparsed: JSONValue
        do {
            reparsed = try JSONValue(parsing: text)
        } catch {
            fatalError("JSON fuzz property violated: serialized text does not parse (\(error)): \(quoted(text))")
        }
        check(reparsed == value, "round trip changed the value: \(quoted(text))")
    }
    let canonical = value.serializedBytes(options: .sortedKeys)
    let again = (try? JSONValue(parsing: canonical))?.serializedBytes(options: .sortedKeys)
    check(again == canonical, "sorted serialization is not a fixed point: \(quoted(canonical))")
    return 0
}

private func quoted(_ bytes: [UInt8]) -> String {
    String(decoding: bytes.prefix(200), as: UTF8.self)
}

private func check(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError("JSON fuzz property violated: \(message())") }
}
