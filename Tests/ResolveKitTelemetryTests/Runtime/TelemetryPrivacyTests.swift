import Foundation
import ResolveKit
import ResolveKitTelemetry
import ResolveKitTesting
import Testing

@Suite(.timeLimit(.minutes(1)))
struct TelemetryPrivacyTests {
    @Test func noSecretArgumentOrMessageReachesALabelOrASpanAttribute() async throws {
        try await TelemetryHarness.run { harness in
            let question = "two things please, my pin is zqxw-quokka"
            try await harness.withRuntime(harness.configuration()) { runtime in
                _ = try await runtime.ask(question)
            }
            let spans = await harness.exportedSpans()
            let exposition = String(decoding: harness.telemetry.registry.exposition(), as: UTF8.self)
            let bodies = harness.collector.requests.map { String(decoding: $0.body, as: UTF8.self) }
            #expect(!spans.isEmpty)
            for secret in ["rk_dev", TelemetryTestFunctions.secretArgument, "/etc/passwd", "zqxw-quokka", "Bearer"] {
                #expect(!exposition.contains(secret), "\(secret) in the metrics")
                #expect(!bodies.contains { $0.contains(secret) }, "\(secret) in an export")
            }
            // The calls' spans name the function and the call, never the arguments.
            let call = try #require(spans.first { $0.name == "execute_tool set_lights" })
            #expect(
                Set(call.attributes.keys) == [
                    "gen_ai.operation.name", "gen_ai.tool.name", "gen_ai.tool.call.id", "gen_ai.tool.type",
                    "resolvekit.approval.decided_by", "resolvekit.tool.outcome",
                ])
        }
    }
}
