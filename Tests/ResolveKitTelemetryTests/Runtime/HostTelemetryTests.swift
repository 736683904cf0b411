import Foundation
import ResolveKit
import ResolveKitTelemetry
import ResolveKitTesting
import Testing

@Suite(.timeLimit(.minutes(1)))
struct HostTelemetryTests {
    @Test func aHostsSessionsShareOneRegistryWhoseTextTheHostGives() async throws {
        try await TelemetryHarness.run { harness in
            let host = ResolveKitHost(configuration: harness.configuration())
            _ = try await host.ask("weather please", as: "alice")
            _ = try await host.ask("weather please", as: "bob")
            let (contentType, body) = try #require(host.metricsText(accept: "text/plain"))
            #expect(contentType.hasPrefix("text/plain; version=0.0.4"))
            let samples = ExpositionSamples(body)
            #expect(samples["resolvekit_sessions_open"] == 2)
            #expect(samples["resolvekit_event_streams_connected"] == 2)
            #expect(
                samples[
                    #"resolvekit_tool_calls_total{function="get_weather",outcome="success",decided_by="automatic"}"#]
                    == 2)
            let open = try #require(host.metricsText(accept: "application/openmetrics-text; version=1.0.0"))
            #expect(open.contentType.hasPrefix("application/openmetrics-text"))
            #expect(String(decoding: open.body, as: UTF8.self).hasSuffix("# EOF\n"))
            await host.drain(timeout: .seconds(5))
            #expect(ExpositionSamples(harness.telemetry.registry.exposition())["resolvekit_sessions_open"] == 0)
        }
    }

    @Test func aHostWithoutTelemetryHasNoMetricsText() async throws {
        try await TelemetryHarness.run { harness in
            let host = ResolveKitHost(configuration: harness.configuration(recording: false))
            #expect(host.metricsText(accept: nil) == nil)
        }
    }
}
