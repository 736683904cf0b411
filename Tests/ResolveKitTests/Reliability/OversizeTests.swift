import Foundation
import ResolveKit
import ResolveKitTesting
import Synchronization
import Testing

/// Payload sizes are not trusted: an event beyond the SSE parser's limit and a response body beyond the REST
/// limit are refused with an error that says so, and the runtime goes on working.
@Suite(.timeLimit(.minutes(1)))
struct OversizeTests {
    @Test func anEventBeyondTheParserLimitIsDroppedWithAClearLogLineAndTheRuntimeGoesOn() async throws {
        try await SecurityHarness.run { harness in
            try await withRuntime(harness.configuration()) { runtime in
                let huge = String(repeating: "x", count: 1_200_000)
                let payload: JSONValue = ["message_id": "msg-huge", "text": .string(huge)]
                #expect(harness.backend.injectEvent(type: "human_message", payload: payload, intoSession: runtime.sessionID!))
                await runtime.wait { $0.executionLog.contains { $0.hasPrefix("Dropped an oversized event") } }
                let line = try #require(runtime.executionLog.first { $0.hasPrefix("Dropped an oversized event") })
                #expect(line.contains("exceeds the 1048576-byte line limit"))
                try await runtime.converse("what time is it")
                #expect(runtime.messages.last?.text == #"Done. The get_time returned "10:42"."#)
                #expect(!runtime.messages.contains { $0.text.count > 100_000 })
                #expect(runtime.connectionState == .active)
            }
        }
    }

    @Test func aResponseBodyBeyondTheLimitIsRefusedAndTheRequestRetried() async throws {
        let oversized = Atomic<Bool>(false)
        let override: @Sendable (LoopbackRequest) -> LoopbackResponse? = { request in
            guard request.method == "POST", request.path.hasSuffix("/messages"),
                !oversized.exchange(true, ordering: .relaxed)
            else { return nil }
            return LoopbackResponse(
                status: 202, headers: [(name: "content-type", value: "application/json")],
                body: .bytes(Array(repeating: UInt8(ascii: " "), count: 9 * 1024 * 1024)))
        }
        try await SecurityHarness.run(override: override) { harness in
            try await withRuntime(harness.configuration()) { runtime in
                try await runtime.converse("what time is it")
                let failure = try #require(runtime.executionLog.first { $0.hasPrefix("Sending the message failed (attempt 1)") })
                #expect(failure.contains("larger than the allowed 8388608 bytes"))
                #expect(runtime.messages.last?.text == #"Done. The get_time returned "10:42"."#)
                #expect(harness.backend.counters.turnsStarted == 1)
            }
        }
    }
}
