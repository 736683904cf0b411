// libFuzzer target: decoding stream events (Sources/ResolveKitCore/Wire), the path every SSE `data:` takes.
//
// Not part of the SwiftPM build: Tests/Fuzz/run-fuzzers.sh compiles Sources/ResolveKitCore with coverage and ASan
// into a static library and links this harness against it. Properties checked on every input:
// - `EventEnvelope(jsonBytes:)` and `.event()` never crash: bad input is a thrown WireDecodingError;
// - a decoded envelope written back with `.json` decodes to an equal envelope and an equal typed event;
// - the input is also tried as the payload of each known event type, so that the fuzzer reaches every payload
//   decoder without first having to invent a whole envelope.

import ResolveKitCore

private let knownTypes = [
    "tool_call_request", "turn_complete", "assistant_text_delta", "error", "feedback_requested",
    "session_escalated", "human_message", "something_new",
]

/// libFuzzer's entry point: runs one input; a violated property stops the process with `fatalError`.
///
/// - Parameters:
///   - start: The input bytes.
///   - count: How many.
/// - Returns: Always 0 (libFuzzer reserves other values).
@_cdecl("LLVMFuzzerTestOneInput")
public func eventEnvelopeFuzzTarget(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: start, count: count)
    if let envelope = try? EventEnvelope(jsonBytes: bytes) {
        checkRoundTrip(envelope)
    }
    guard case .object(let payload)? = try? JSONValue(parsing: bytes) else { return 0 }
    for type in knownTypes {
        let envelope = EventEnvelope(
            eventID: "1-0", turnID: "turn", requestID: "req", timestamp: "2026-11-22T01:52:09.875427+00:00",
            type: type, payload: payload)
        checkRoundTrip(envelope)
    }
    return 0
}

private func checkRoundTrip(_ envelope: EventEnvelope) {
    let event = Result { () throws(WireDecodingError) in try envelope.event() }
    let text = envelope.json.serializedBytes(options: .sortedKeys)
    guard let again = try? EventEnvelope(jsonBytes: text) else {
        fatalError("EventEnvelope fuzz property violated: re-encoded envelope does not decode")
    }
    check(again == envelope, "re-encoded envelope differs")
    let eventAgain = Result { () throws(WireDecodingError) in try again.event() }
    switch (event, eventAgain) {
    case (.success(let first), .success(let second)): check(first == second, "typed event differs after round trip")
    case (.failure(let first), .failure(let second)): check(first == second, "decoding error differs")
    default: fatalError("EventEnvelope fuzz property violated: event() success differs after round trip")
    }
}

private func check(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError("EventEnvelope fuzz property violated: \(message())") }
}
