import ResolveKitChildProcess
import ResolveKitCore
import ResolveKitTelemetry
import ResolveKitTesting
import Testing

@Suite(.timeLimit(.minutes(1)))
struct ResolveKitMetricsTests {
    static let functions = ["get_weather", "delete_file", "read_log_tail"]

    /// One call's life as the tools core and the session driver report it: the approval, the run, the result's
    /// delivery after one retry.
    @Test func oneCallsLifeThroughTheCatalog() throws {
        let registry = MetricsRegistry()
        let metrics = try ResolveKitMetrics(registry: registry, functionNames: Self.functions)
        metrics.sessionOpened()
        metrics.streamConnected()
        metrics.eventReceived(type: "tool_call_request")
        metrics.journalSizeChanged(by: 1)
        metrics.approvalRequested()
        #expect(ExpositionSamples(registry.exposition())["resolvekit_approvals_pending"] == 1)
        metrics.approvalDecided(by: .person, wait: .milliseconds(1500))
        metrics.toolCallStarted()
        #expect(ExpositionSamples(registry.exposition())["resolvekit_tool_calls_running"] == 1)
        metrics.toolCallFinished(
            function: "get_weather", outcome: .success, decidedBy: .person, duration: .milliseconds(40))
        metrics.resultDeliveryRetried(reason: .serverError)
        metrics.resultDelivered(latency: .milliseconds(3))
        metrics.journalSizeChanged(by: -1)

        let samples = ExpositionSamples(registry.exposition())
        #expect(
            samples[#"resolvekit_tool_calls_total{function="get_weather",outcome="success",decided_by="person"}"#] == 1)
        #expect(samples["resolvekit_approvals_pending"] == 0)
        #expect(samples["resolvekit_tool_calls_running"] == 0)
        #expect(samples[#"resolvekit_tool_approval_wait_seconds_bucket{decided_by="person",le="1"}"#] == 0)
        #expect(samples[#"resolvekit_tool_approval_wait_seconds_bucket{decided_by="person",le="2.5"}"#] == 1)
        #expect(samples[#"resolvekit_tool_execution_duration_seconds_bucket{function="get_weather",le="0.05"}"#] == 1)
        #expect(samples[#"resolvekit_tool_execution_duration_seconds_sum{function="get_weather"}"#] == 0.04)
        let operations = "gen_ai_client_operation_duration_seconds_count"
        #expect(samples[operations + #"{gen_ai_provider_name="resolvekit",gen_ai_operation_name="execute_tool"}"#] == 1)
        #expect(samples[#"resolvekit_tool_result_delivery_retries_total{reason="server_error"}"#] == 1)
        #expect(samples[#"resolvekit_tool_results_total{outcome="delivered"}"#] == 1)
        #expect(samples["resolvekit_tool_result_delivery_seconds_count"] == 1)
        #expect(samples[#"resolvekit_events_received_total{type="tool_call_request"}"#] == 1)
        #expect(samples["resolvekit_journal_entries"] == 0)
        #expect(samples["resolvekit_sessions_open"] == 1)
        #expect(samples["resolvekit_event_streams_connected"] == 1)
    }

    /// The per-call methods find their series by hand, not through the families' generic labels: every
    /// combination of function, outcome and decider lands in its own series, as the generic path would put it
    /// (each combination is counted a different number of times, so a series in another's place shows).
    @Test func everyCombinationOfACallsLabelsHasItsOwnSeries() throws {
        let registry = MetricsRegistry()
        let metrics = try ResolveKitMetrics(registry: registry, functionNames: Self.functions)
        let functions = Self.functions + ["not_registered"]
        let outcomes = ResolveKitMetrics.ToolOutcome.allCases
        let deciders = ResolveKitMetrics.Decider.allCases
        var combinations:
            [(function: String, outcome: ResolveKitMetrics.ToolOutcome, decider: ResolveKitMetrics.Decider)] = []
        for function in functions {
            for outcome in outcomes {
                for decider in deciders { combinations.append((function, outcome, decider)) }
            }
        }
        for (index, combination) in combinations.enumerated() {
            for _ in 0...index {
                metrics.toolCallStarted()
                metrics.toolCallFinished(
                    function: combination.function, outcome: combination.outcome, decidedBy: combination.decider,
                    duration: .milliseconds(1))
            }
        }
        for (index, decider) in deciders.enumerated() {
            for _ in 0...index {
                metrics.approvalRequested()
                metrics.approvalDecided(by: decider, wait: .seconds(1))
            }
        }
        for type in ResolveKitMetrics.eventTypes + ["a_future_event"] { metrics.eventReceived(type: type) }
        metrics.resultDelivered(latency: .milliseconds(3))
        metrics.resultAbandoned()
        metrics.resultAbandoned()
        let reasons = ResolveKitMetrics.RetryReason.allCases
        for (index, reason) in reasons.enumerated() {
            for _ in 0...index { metrics.resultDeliveryRetried(reason: reason) }
        }

        let samples = ExpositionSamples(registry.exposition())
        var executions: [String: Double] = [:]
        var byError: [String: Double] = [:]
        for (index, combination) in combinations.enumerated() {
            let function = Self.functions.contains(combination.function) ? combination.function : "other"
            let series =
                #"{function="\#(function)",outcome="\#(combination.outcome.rawValue)","#
                + #"decided_by="\#(combination.decider.rawValue)"}"#
            #expect(samples["resolvekit_tool_calls_total" + series] == Double(index + 1), "\(series)")
            executions[function, default: 0] += Double(index + 1)
            let error = [.success: "", .error: "tool_error"][combination.outcome] ?? combination.outcome.rawValue
            byError[error, default: 0] += Double(index + 1)
        }
        for (function, count) in executions {
            let execution = #"resolvekit_tool_execution_duration_seconds_count{function="\#(function)"}"#
            #expect(samples[execution] == count, "\(execution)")
        }
        let operations = "gen_ai_client_operation_duration_seconds_count"
        let executeTool = #"gen_ai_provider_name="resolvekit",gen_ai_operation_name="execute_tool""#
        for (error, count) in byError {
            let series = error.isEmpty ? "" : #",error_type="\#(error)""#
            #expect(samples[operations + "{" + executeTool + series + "}"] == count, "\(error)")
        }
        #expect(samples["resolvekit_tool_calls_running"] == 0)
        for (index, decider) in deciders.enumerated() {
            let wait = #"resolvekit_tool_approval_wait_seconds_count{decided_by="\#(decider.rawValue)"}"#
            #expect(samples[wait] == Double(index + 1), "\(wait)")
        }
        #expect(samples["resolvekit_approvals_pending"] == 0)
        for type in ResolveKitMetrics.eventTypes + ["other"] {
            #expect(samples[#"resolvekit_events_received_total{type="\#(type)"}"#] == 1, "\(type)")
        }
        #expect(samples[#"resolvekit_tool_results_total{outcome="delivered"}"#] == 1)
        #expect(samples[#"resolvekit_tool_results_total{outcome="abandoned"}"#] == 2)
        #expect(samples["resolvekit_tool_result_delivery_seconds_count"] == 1)
        for (index, reason) in reasons.enumerated() {
            let retries = #"resolvekit_tool_result_delivery_retries_total{reason="\#(reason.rawValue)"}"#
            #expect(samples[retries] == Double(index + 1), "\(retries)")
        }
    }

    @Test func aTurnCountsItsEndingDurationAndTokens() throws {
        let registry = MetricsRegistry()
        let metrics = try ResolveKitMetrics(registry: registry, functionNames: [])
        metrics.askQueued()
        metrics.askDequeued()
        metrics.turnFinished(
            ending: .answered, duration: .seconds(3), usage: TokenUsage(promptTokens: 616, completionTokens: 15))
        metrics.turnFinished(ending: .timedOut, duration: .seconds(30), usage: nil)
        let samples = ExpositionSamples(registry.exposition())
        #expect(samples[#"resolvekit_turns_total{ending="answered"}"#] == 1)
        #expect(samples[#"resolvekit_turns_total{ending="timed_out"}"#] == 1)
        #expect(samples[#"resolvekit_turn_duration_seconds_bucket{ending="answered",le="5"}"#] == 1)
        let tokens =
            "gen_ai_client_token_usage_sum"
            + #"{gen_ai_operation_name="invoke_agent",gen_ai_provider_name="resolvekit",gen_ai_token_type="input"}"#
        #expect(samples[tokens] == 616)
        let turns = #"{gen_ai_provider_name="resolvekit",gen_ai_operation_name="invoke_agent",error_type="timeout"}"#
        #expect(samples["gen_ai_client_operation_duration_seconds_count" + turns] == 1)
        #expect(samples["resolvekit_asks_queued"] == 0)
    }

    @Test func unknownFunctionsEventTypesAndMethodsAreCountedAsOther() throws {
        let registry = MetricsRegistry()
        let metrics = try ResolveKitMetrics(registry: registry, functionNames: Self.functions)
        metrics.toolCallFinished(function: "rm -rf /", outcome: .refused, decidedBy: .automatic, duration: nil)
        metrics.eventReceived(type: "a_future_event")
        metrics.mcpRequestFinished(
            method: "sampling/createMessage", outcome: MCPOutcomeFor(-32000), duration: .milliseconds(2))
        metrics.streamReconnecting(reason: .idleTimeout)
        let samples = ExpositionSamples(registry.exposition())
        #expect(
            samples[#"resolvekit_tool_calls_total{function="other",outcome="refused",decided_by="automatic"}"#] == 1)
        #expect(samples[#"resolvekit_events_received_total{type="other"}"#] == 1)
        #expect(
            samples[#"mcp_server_operation_duration_seconds_count{mcp_method_name="other",error_type="_OTHER"}"#] == 1)
        #expect(samples[#"resolvekit_event_stream_reconnects_total{reason="idle_timeout"}"#] == 1)
        #expect(!samples.names.contains { $0.contains("rm -rf") })
    }

    @Test func aFunctionNamedOtherCannotBeRegistered() {
        let error = #expect(throws: TelemetryError.self) {
            try ResolveKitMetrics(registry: MetricsRegistry(), functionNames: ["other"])
        }
        #expect(error?.code == .invalidLabel)
    }

    func MCPOutcomeFor(_ code: Int) -> ResolveKitMetrics.MCPOutcome {
        ResolveKitMetrics.MCPOutcome(jsonRPCCode: code)
    }

    @Test func jsonRPCCodesMapToTheirOutcome() {
        #expect(ResolveKitMetrics.MCPOutcome(jsonRPCCode: -32602) == .invalidParams)
        #expect(ResolveKitMetrics.MCPOutcome(jsonRPCCode: -32099) == .other)
    }

    /// A session with successful, failed, declined, timed-out and refused calls, read by Prometheus' own linter.
    @Test(.enabled(if: ExternalProgram.promtool.shouldRun, Comment(rawValue: ExternalProgram.promtool.skipNote)))
    func theExpositionAfterCallsOfEveryOutcomePassesPromtool() async throws {
        let promtool = try ExternalProgram.promtool.require()
        let registry = MetricsRegistry()
        try registry.register(ProcessMetrics())
        let metrics = try ResolveKitMetrics(registry: registry, functionNames: Self.functions)
        // The processor registers the span counters; its loop never runs here.
        let processor = try BatchSpanProcessor(
            exporter: OTLPSpanExporter(
                endpoint: "http://127.0.0.1:9/v1/traces", resource: TelemetryResource(serviceName: "x"),
                transport: PlainHTTPTransport()),
            metrics: registry)
        #expect(processor.queuedCount == 0)
        metrics.sessionOpened()
        for _ in 0..<2 {
            metrics.toolCallStarted()
            metrics.toolCallFinished(
                function: "get_weather", outcome: .success, decidedBy: .policy, duration: .milliseconds(30))
        }
        metrics.toolCallStarted()
        metrics.toolCallFinished(
            function: "read_log_tail", outcome: .error, decidedBy: .automatic, duration: .seconds(2))
        metrics.approvalRequested()
        metrics.approvalDecided(by: .person, wait: .seconds(4))
        metrics.toolCallFinished(function: "delete_file", outcome: .declined, decidedBy: .person, duration: nil)
        metrics.approvalRequested()
        metrics.approvalDecided(by: .timeout, wait: .seconds(28))
        metrics.toolCallFinished(function: "delete_file", outcome: .timeout, decidedBy: .timeout, duration: nil)
        metrics.toolCallFinished(function: "format_disk", outcome: .refused, decidedBy: .automatic, duration: nil)
        metrics.turnFinished(
            ending: .answered, duration: .seconds(6), usage: TokenUsage(promptTokens: 900, completionTokens: 40))
        metrics.eventReceived(type: "tool_call_request")
        metrics.mcpRequestFinished(method: "tools/call", outcome: .toolError, duration: .milliseconds(12))

        let text = registry.exposition()
        let samples = ExpositionSamples(text)
        #expect(
            samples[#"resolvekit_tool_calls_total{function="get_weather",outcome="success",decided_by="policy"}"#] == 2)
        #expect(
            samples[#"resolvekit_tool_calls_total{function="read_log_tail",outcome="error",decided_by="automatic"}"#]
                == 1)
        #expect(
            samples[#"resolvekit_tool_calls_total{function="delete_file",outcome="declined",decided_by="person"}"#] == 1
        )
        #expect(
            samples[#"resolvekit_tool_calls_total{function="delete_file",outcome="timeout",decided_by="timeout"}"#] == 1
        )
        #expect(
            samples[#"resolvekit_tool_calls_total{function="other",outcome="refused",decided_by="automatic"}"#] == 1)
        #expect(samples[#"resolvekit_tool_execution_duration_seconds_bucket{function="get_weather",le="0.025"}"#] == 0)
        #expect(samples[#"resolvekit_tool_execution_duration_seconds_bucket{function="get_weather",le="0.05"}"#] == 2)
        #expect(samples[#"resolvekit_tool_execution_duration_seconds_bucket{function="get_weather",le="+Inf"}"#] == 2)
        #expect(samples[#"resolvekit_tool_execution_duration_seconds_count{function="read_log_tail"}"#] == 1)
        #expect(samples[#"resolvekit_tool_execution_duration_seconds_sum{function="read_log_tail"}"#] == 2)
        #expect(samples[#"resolvekit_tool_approval_wait_seconds_bucket{decided_by="timeout",le="30"}"#] == 1)
        #expect(samples[#"resolvekit_tool_approval_wait_seconds_bucket{decided_by="timeout",le="10"}"#] == 0)
        #expect(samples["resolvekit_tool_calls_running"] == 0)
        #expect(samples["resolvekit_approvals_pending"] == 0)
        #expect((samples["process_resident_memory_bytes"] ?? 0) > 0)

        let output = try await ProgramRunner.run(
            promtool, ["check", "metrics"], input: String(decoding: text, as: UTF8.self))
        #expect(output.termination.status == 0, "\(output.standardOutput)\(output.standardError)")
        #expect(
            output.standardOutput.isEmpty && output.standardError.isEmpty,
            "promtool's lint: \(output.standardOutput)\(output.standardError)")
    }
}
