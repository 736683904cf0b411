// libFuzzer target: the incremental SSE parser (Sources/ResolveKitHTTP/SSE).
//
// Not part of the SwiftPM build: Tests/Fuzz/run-fuzzers.sh compiles Sources/ResolveKitHTTP/SSE with coverage and ASan
// into a static library and links this harness against it. The first input byte picks the limits and the split point;
// the rest is the stream. Properties checked on every input:
// - splitting the stream into two chunks at any point gives the same outputs as one chunk (the parser's
//   central promise), and so does feeding it byte by byte;
// - no event's data exceeds maxEventDataSize (decoded UTF-8); a comment is at most a decoded line;
// - lastEventID and reconnectionTime agree between the whole and the split parse;
// - finish() leaves a parser that parses the next connection like a fresh one (except the carried-over id).

import ResolveKitHTTP

/// libFuzzer's entry point: runs one input; a violated property stops the process with `fatalError`.
///
/// - Parameters:
///   - start: The input bytes.
///   - count: How many.
/// - Returns: Always 0 (libFuzzer reserves other values).
@_cdecl("LLVMFuzzerTestOneInput")
public func sseParserFuzzTarget(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    guard count > 1 else { return 0 }
    let control = start[0]
    let stream = UnsafeRawBufferPointer(start: start + 1, count: count - 1)
    // Small limits half of the time so that the fuzzer reaches the limit paths with short inputs.
    let limits = control & 1 == 0 ? SSEParser.Limits() : SSEParser.Limits(maxLineLength: 24, maxEventDataSize: 40)
    let split = Int(control >> 1) % (stream.count + 1)

    var whole = SSEParser(limits: limits)
    var wholeOutputs: [SSEParser.Output] = []
    whole.parse(stream) { wholeOutputs.append($0) }

    var halves = SSEParser(limits: limits)
    var splitOutputs: [SSEParser.Output] = []
    halves.parse(UnsafeRawBufferPointer(rebasing: stream[..<split])) { splitOutputs.append($0) }
    halves.parse(UnsafeRawBufferPointer(rebasing: stream[split...])) { splitOutputs.append($0) }

    var bytewise = SSEParser(limits: limits)
    var bytewiseOutputs: [SSEParser.Output] = []
    for offset in 0..<stream.count {
        bytewise.parse(UnsafeRawBufferPointer(rebasing: stream[offset..<offset + 1])) { bytewiseOutputs.append($0) }
    }

    check(normalized(wholeOutputs) == normalized(splitOutputs), "whole and split parses differ at \(split)")
    check(normalized(wholeOutputs) == normalized(bytewiseOutputs), "whole and byte-by-byte parses differ")
    check(whole.lastEventID == halves.lastEventID, "lastEventID differs between whole and split parse")
    check(whole.lastEventID == bytewise.lastEventID, "lastEventID differs between whole and byte-by-byte parse")
    check(whole.reconnectionTime == halves.reconnectionTime, "reconnectionTime differs")
    for output in wholeOutputs {
        switch output {
        case .event(let event):
            check(event.data.utf8.count <= limits.maxEventDataSize, "event data beyond the limit")
            check(!event.type.isEmpty, "empty event type dispatched")
        case .comment(let text):
            // The line limit counts raw bytes; each invalid byte decodes to a 3-byte U+FFFD.
            check(text.utf8.count <= 3 * limits.maxLineLength, "comment beyond the line limit")
        case .failure(let error):
            check(error.size > error.limit, "failure reported below its limit")
        }
    }
    checkFinishResets(whole, stream: stream, limits: limits)
    return 0
}

/// After `finish()`, a second connection parses as on a fresh parser; only `lastEventID` may carry over.
private func checkFinishResets(_ used: SSEParser, stream: UnsafeRawBufferPointer, limits: SSEParser.Limits) {
    var reused = used
    reused.finish()
    var fresh = SSEParser(limits: limits)
    var reusedOutputs: [SSEParser.Output] = []
    var freshOutputs: [SSEParser.Output] = []
    reused.parse(stream) { reusedOutputs.append($0) }
    fresh.parse(stream) { freshOutputs.append($0) }
    check(normalized(reusedOutputs) == normalized(freshOutputs), "a finished parser parses differently")
}

/// Outputs with the `size` of a line-length failure zeroed: that size is "bytes held when the limit was
/// crossed", which legitimately depends on where the chunks end. Everything else must match exactly.
private func normalized(_ outputs: [SSEParser.Output]) -> [SSEParser.Output] {
    outputs.map { output in
        guard case .failure(var error) = output, error.code == .lineTooLong else { return output }
        error.size = 0
        return .failure(error)
    }
}

private func check(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError("SSEParser fuzz property violated: \(message())") }
}
