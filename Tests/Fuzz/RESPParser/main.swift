// libFuzzer target: the incremental RESP2/RESP3 parser (Sources/ResolveKitRedis/RESP).
//
// Not part of the SwiftPM build: Tests/Fuzz/run-fuzzers.sh compiles Sources/ResolveKitRedis/RESP with coverage and
// ASan into a static library and links this harness against it. The first input byte picks the limits and the split
// point; the rest is the stream. Properties checked on every input:
// - the stream parsed whole, split in two at an input-derived point, and byte by byte gives the same values (compared
//   by their encoding, so NaN equals NaN) and the same error (code and offset), after the same values;
// - every value is within the limits: nesting depth, aggregate counts, bulk lengths;
// - a value's encoding parses back to one value with the same encoding (encoding is a fixed point).

import ResolveKitRedis

/// libFuzzer's entry point: runs one input; a violated property stops the process with `fatalError`.
///
/// - Parameters:
///   - start: The input bytes.
///   - count: How many.
/// - Returns: Always 0 (libFuzzer reserves other values).
@_cdecl("LLVMFuzzerTestOneInput")
public func respParserFuzzTarget(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    guard count > 1 else { return 0 }
    let control = start[0]
    let stream = UnsafeRawBufferPointer(start: start + 1, count: count - 1)
    // Tiny limits half of the time, so that short inputs reach every limit.
    let limits =
        control & 1 == 0
        ? RESPParser.Limits()
        : RESPParser.Limits(maxBulkLength: 16, maxLineLength: 24, maxDepth: 3, maxAggregateCount: 5)
    let split = Int(control >> 1) % (stream.count + 1)

    let whole = run(limits, [stream])
    let halves = run(
        limits,
        [
            UnsafeRawBufferPointer(rebasing: stream[..<split]), UnsafeRawBufferPointer(rebasing: stream[split...]),
        ])
    let bytewise = run(limits, (0..<stream.count).map { UnsafeRawBufferPointer(rebasing: stream[$0..<$0 + 1]) })
    check(whole.values == halves.values, "whole and split parses differ at \(split)")
    check(whole.error == halves.error, "whole and split parses fail differently at \(split)")
    check(whole.values == bytewise.values, "whole and byte-by-byte parses differ")
    check(whole.error == bytewise.error, "whole and byte-by-byte parses fail differently")
    if let error = whole.error { check(error.offset >= 0 && error.offset < stream.count, "error offset outside input") }
    for value in whole.parsed {
        checkBounded(value, limits, depth: 0)
        checkFixedPoint(value, limits)
    }
    return 0
}

private struct Run {
    var parsed: [RESPValue] = []
    var values: [[UInt8]] = []
    var error: RESPParseError?
}

private func run(_ limits: RESPParser.Limits, _ chunks: [UnsafeRawBufferPointer]) -> Run {
    var parser = RESPParser(limits: limits)
    var result = Run()
    for chunk in chunks {
        do {
            try parser.parse(chunk) { result.parsed.append($0) }
        } catch {
            result.error = error
            break
        }
    }
    result.values = result.parsed.map(\.encoded)
    return result
}

private func checkBounded(_ value: RESPValue, _ limits: RESPParser.Limits, depth: Int) {
    switch value {
    case .bulkString(let bytes): check(bytes.count <= limits.maxBulkLength, "bulk string beyond the limit")
    case .verbatimString(_, let text): check(text.count + 4 <= limits.maxBulkLength, "verbatim beyond the limit")
    case .array(let values), .set(let values), .push(let values):
        check(depth < limits.maxDepth, "aggregate deeper than the limit")
        check(values.count <= limits.maxAggregateCount, "aggregate larger than the limit")
        values.forEach { checkBounded($0, limits, depth: depth + 1) }
    case .map(let pairs):
        check(depth < limits.maxDepth, "map deeper than the limit")
        check(pairs.count <= limits.maxAggregateCount, "map larger than the limit")
        pairs.forEach {
            checkBounded($0.key, limits, depth: depth + 1)
            checkBounded($0.value, limits, depth: depth + 1)
        }
    case .attributed(let attributes, let inner):
        check(depth < limits.maxDepth, "attribute deeper than the limit")
        check(attributes.count <= limits.maxAggregateCount, "attribute larger than the limit")
        attributes.forEach {
            checkBounded($0.key, limits, depth: depth + 1)
            checkBounded($0.value, limits, depth: depth + 1)
        }
        checkBounded(inner, limits, depth: depth)
    default:
        break
    }
}

/// Invalid UTF-8 in a line decodes to U+FFFD (three bytes), so the re-parse allows three times the lengths.
private func checkFixedPoint(_ value: RESPValue, _ limits: RESPParser.Limits) {
    let encoded = value.encoded
    var parser = RESPParser(
        limits: RESPParser.Limits(
            maxBulkLength: limits.maxBulkLength * 3 + 8, maxLineLength: limits.maxLineLength * 3 + 8,
            maxDepth: limits.maxDepth, maxAggregateCount: limits.maxAggregateCount))
    do {
        let again = try parser.parse(encoded)
        check(again.count == 1 && again[0].encoded == encoded, "an encoded value does not parse back to itself")
    } catch {
        fatalError("RESPParser fuzz property violated: an encoded value does not parse: \(error)")
    }
}

private func check(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError("RESPParser fuzz property violated: \(message())") }
}
