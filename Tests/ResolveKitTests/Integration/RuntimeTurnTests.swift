import Foundation
import ResolveKit
import ResolveKitTesting
import Testing

@Suite(.timeLimit(.minutes(1)))
struct RuntimeTurnTests {
    @Test func aTurnWithThreeCallsTwoNeedingApprovalEndsInTurnComplete() async throws {
        try await RuntimeHarness.run { harness in
            try await harness.withRuntime(harness.configuration()) { runtime in
                #expect(runtime.connectionState == .active)
                try await runtime.converse("run three tools")
                #expect(runtime.messages.last?.role == .assistant)
                #expect(runtime.messages.last?.text == "All done.")
                let batches = runtime.toolCallBatches
                #expect(batches.map { $0.items.map(\.functionName) } == [["get_time"], ["set_lights", "lock_door"]])
                #expect(batches.flatMap(\.items).allSatisfy { $0.status == .completed })
                #expect(runtime.toolCallBatchState == .completed)
                let counts = harness.backend.counters.toolResults.values
                #expect(counts.map(\.accepted).reduce(0, +) == 3)
                #expect(counts.map(\.duplicates).reduce(0, +) == 0)
            }
        }
    }
}
