/// A deterministic, realistic `text/event-stream` body shaped like ResolveKit's server output (WireProtocol §5.2,
/// PROTOCOL-TRANSCRIPT.md): Redis-style ids, the emitted event types with their envelope sizes, and a
/// `: keep-alive` comment every 25 events.
struct SSECorpus {
    var bytes: [UInt8]
    /// How many events the body holds.
    var events: Int
    /// How many LF bytes the body holds.
    var lineFeeds: Int

    static func generate(targetBytes: Int) -> SSECorpus {
        var random = SplitMix(seed: 0x5EED)
        var text = ": connected\n\n"
        text.reserveCapacity(targetBytes + 4096)
        var events = 0
        var milliseconds = 1_795_312_329_875
        while text.utf8.count < targetBytes {
            milliseconds += Int(random.next() % 90) + 1
            let id = "\(milliseconds)-0"
            let (type, payload) = payload(random: &random)
            let envelope =
                #"{"event_id": "\#(id)", "turn_id": "81af1ebb-d6aa-4119-8cde-3e92e49b3263", "request_id": "req-A1", "#
                + #""timestamp": "2026-11-22T01:52:09.875427+00:00", "type": "\#(type)", "payload": \#(payload)}"#
            text += "id: \(id)\nevent: \(type)\ndata: \(envelope)\n\n"
            events += 1
            if events % 25 == 0 { text += ": keep-alive\n\n" }
        }
        let bytes = Array(text.utf8)
        return SSECorpus(bytes: bytes, events: events, lineFeeds: bytes.count { $0 == 0x0A })
    }

    /// One of the emitted types, weighted like a tool-using conversation.
    private static func payload(random: inout SplitMix) -> (type: String, payload: String) {
        switch random.next() % 10 {
        case 0..<4:
            let room = ["kitchen", "hall", "office", "garage"][Int(random.next() % 4)]
            return (
                "tool_call_request",
                #"{"call_id": "call_6709cab93814441e8f7e4e71", "function_name": "set_lights", "arguments": "#
                    + #"{"on": true, "room": "\#(room)"}, "timeout_seconds": 60, "human_description": "#
                    + #""I will set lights with on true, room \"\#(room)\".", "requires_approval": true}"#
            )
        case 4..<7:
            let words = Int(random.next() % 120) + 8
            let text = (0..<words).map {
                ["the", "lights", "are", "on", "Done.", "returned", "\\\"10:42 AM\\\""][$0 % 7]
            }
            return (
                "turn_complete",
                #"{"full_text": "\#(text.joined(separator: " "))", "usage": {"prompt_tokens": 616, "#
                    + #""completion_tokens": \#(words)}}"#
            )
        case 7..<9:
            return ("feedback_requested", #"{"immediate": false}"#)
        default:
            return (
                "error",
                #"{"code": "llm_error", "message": "Assistant is temporarily unavailable. Please try again.", "#
                    + #""recoverable": true}"#
            )
        }
    }
}

/// A tiny seeded generator so every run parses the same corpus.
struct SplitMix {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
