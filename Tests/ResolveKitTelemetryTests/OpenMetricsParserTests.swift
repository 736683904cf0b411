import ResolveKitChildProcess
import ResolveKitCore
import ResolveKitTelemetry
import ResolveKitTesting
import Testing

@Suite(.timeLimit(.minutes(1)))
struct OpenMetricsParserTests {
    /// Reads an OpenMetrics text from stdin with prometheus-client's parser (which refuses anything the format does
    /// not allow) and prints the number of families, the calls counted and the `+Inf` bucket of an execution time.
    static let script = """
        import sys
        from prometheus_client.openmetrics.parser import text_string_to_metric_families
        families = {family.name: family for family in text_string_to_metric_families(sys.stdin.read())}
        calls = sum(s.value for s in families["resolvekit_tool_calls"].samples if s.name.endswith("_total"))
        runs = [s for s in families["resolvekit_tool_execution_duration_seconds"].samples
                if s.name.endswith("_bucket") and s.labels["le"] == "+Inf" and s.labels["function"] == "get_weather"]
        unit = families["resolvekit_tool_execution_duration_seconds"].unit
        print(len(families), int(calls), int(runs[0].value), unit)
        """

    @Test(
        .enabled(
            if: ExternalProgram.prometheusClient.shouldRun,
            Comment(rawValue: ExternalProgram.prometheusClient.skipNote)))
    func theOpenMetricsExpositionPassesAStrictParser() async throws {
        let python = try ExternalProgram.prometheusClient.require()
        let metrics = try CatalogNames.catalog()
        for outcome in ResolveKitMetrics.ToolOutcome.allCases {
            metrics.toolCallFinished(
                function: "get_weather", outcome: outcome, decidedBy: .policy, duration: .seconds(1))
        }
        metrics.turnFinished(
            ending: .answered, duration: .seconds(2), usage: TokenUsage(promptTokens: 5, completionTokens: 1))
        metrics.eventReceived(type: "turn_complete")
        let text = String(decoding: metrics.registry.exposition(.openMetrics), as: UTF8.self)
        let output = try await ProgramRunner.run(python, ["-c", Self.script], input: text)
        #expect(output.termination.status == 0, "\(output.standardError)")
        let families = try CatalogNames.families().count
        #expect(output.standardOutput == "\(families) 5 5 seconds\n")
    }
}
