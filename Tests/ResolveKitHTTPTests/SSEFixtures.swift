import ResolveKitHTTP

/// Real frames and helpers shared by the SSE tests.
enum SSEFixtures {
    /// The bytes of `[SSE A]` in PROTOCOL-TRANSCRIPT.md: the greeting comment and three events.
    static let transcriptStream: String =
        ": connected\n\n"
        + "id: 1795312329875-0\nevent: tool_call_request\ndata: " + toolCallRequest + "\n\n"
        + "id: 1795312329949-0\nevent: turn_complete\ndata: " + turnComplete + "\n\n"
        + "id: 1795312329950-0\nevent: feedback_requested\ndata: " + feedbackRequested + "\n\n"

    static let toolCallRequest = #"""
        {"event_id": "1795312329875-0", "turn_id": "81af1ebb-d6aa-4119-8cde-3e92e49b3263", "request_id": "req-A1", "timestamp": "2026-11-22T01:52:09.875427+00:00", "type": "tool_call_request", "payload": {"call_id": "call_6709cab93814441e8f7e4e71", "function_name": "get_local_time", "arguments": {}, "timeout_seconds": 30, "human_description": "I will get local time for you.", "requires_approval": false}}
        """#
    static let turnComplete = #"""
        {"event_id": "1795312329949-0", "turn_id": "81af1ebb-d6aa-4119-8cde-3e92e49b3263", "request_id": "req-A1", "timestamp": "2026-11-22T01:52:09.949685+00:00", "type": "turn_complete", "payload": {"full_text": "Done. The get_local_time returned \"10:42 AM (Europe/Vilnius)\".", "usage": {"prompt_tokens": 616, "completion_tokens": 15}}}
        """#
    static let feedbackRequested = #"""
        {"event_id": "1795312329950-0", "turn_id": "81af1ebb-d6aa-4119-8cde-3e92e49b3263", "request_id": "req-A1", "timestamp": "2026-11-22T01:52:09.950916+00:00", "type": "feedback_requested", "payload": {"immediate": false}}
        """#

    static let transcriptOutputs: [SSEParser.Output] = [
        .comment("connected"),
        .event(SSEEvent(id: "1795312329875-0", type: "tool_call_request", data: toolCallRequest)),
        .event(SSEEvent(id: "1795312329949-0", type: "turn_complete", data: turnComplete)),
        .event(SSEEvent(id: "1795312329950-0", type: "feedback_requested", data: feedbackRequested)),
    ]

    /// Parses `chunks` with one parser, as one connection.
    static func parse(_ chunks: [ArraySlice<UInt8>], limits: SSEParser.Limits = .init()) -> [SSEParser.Output] {
        var parser = SSEParser(limits: limits)
        return chunks.flatMap { parser.parse($0) }
    }

    /// Failure sizes depend on where the limit was crossed; compare them without it.
    static func withoutSizes(_ outputs: [SSEParser.Output]) -> [SSEParser.Output] {
        outputs.map { output in
            guard case .failure(var error) = output else { return output }
            error.size = 0
            return .failure(error)
        }
    }

    /// Every way of cutting `bytes` into two pieces, and into three when `pairs` is set.
    static func splits(of bytes: [UInt8], pairs: Bool) -> [[ArraySlice<UInt8>]] {
        var result: [[ArraySlice<UInt8>]] = []
        for first in 0...bytes.count {
            guard pairs else {
                result.append([bytes[..<first], bytes[first...]])
                continue
            }
            for second in first...bytes.count {
                result.append([bytes[..<first], bytes[first..<second], bytes[second...]])
            }
        }
        return result
    }
}
