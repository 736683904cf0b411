import Foundation
import ResolveKit
import ResolveKitChildProcess
import ResolveKitTelemetry
import ResolveKitTesting
import Testing

@Suite(.timeLimit(.minutes(1)))
struct RuntimeMetricsTests {
    /// A session with a successful, a failed, a declined, a timed-out and a refused call, on a manual clock.
    static func runSession(_ harness: TelemetryHarness, clock: ManualClock) async throws {
        try await harness.withRuntime(harness.configuration(clock: ResolveKitClock(clock))) { runtime in
            let weather = try await runtime.ask("weather please")
            #expect(weather.ending == .answered)
            let boom = try await runtime.ask("boom")
            #expect(boom.text == "It failed.")
            let declining = Task { try await runtime.ask("delete it") }
            await clock.waitForSleeper(at: .init(offset: .milliseconds(250)))
            clock.advance(by: .milliseconds(250))
            let declined = try await declining.value
            #expect(declined.toolCalls.first?.status == .cancelled(reason: "Denied by policy"))
            let slowing = Task { try await runtime.ask("slow") }
            await runtime.waitForRunning("slow")
            // Deadline: 5 s from its arrival less a tenth of it, so the result still reaches the server in time.
            await clock.waitForSleeper(at: clock.now.advanced(by: .milliseconds(4500)))
            clock.advance(by: .seconds(5))
            let slow = try await slowing.value
            #expect(slow.toolCalls.first?.status == .failed("Timed out after 5s"))
            let payload: JSONValue = [
                "call_id": "call_unknown_1", "function_name": "format_disk", "arguments": [:],
                "timeout_seconds": 30, "human_description": "I will format the disk", "requires_approval": false,
            ]
            let events = runtime.events
            #expect(
                harness.backend.injectEvent(
                    type: "tool_call_request", payload: payload, intoSession: runtime.sessionID!))
            for await event in events {
                if case .toolResultDelivered("call_unknown_1") = event { break }
            }
        }
    }

    @Test func aSessionsExpositionPassesPromtoolWithEveryCallCountedByOutcomeAndDecider() async throws {
        let clock = ManualClock()
        try await TelemetryHarness.run { harness in
            try await Self.runSession(harness, clock: clock)
            let text = harness.telemetry.registry.exposition()
            let samples = ExpositionSamples(text)
            func calls(_ function: String, _ outcome: String, _ decider: String) -> Double? {
                let labels = #"function="\#(function)",outcome="\#(outcome)",decided_by="\#(decider)""#
                return samples["resolvekit_tool_calls_total{" + labels + "}"]
            }
            #expect(calls("get_weather", "success", "automatic") == 1)
            #expect(calls("boom", "error", "automatic") == 1)
            #expect(calls("delete_file", "declined", "policy") == 1)
            #expect(calls("slow", "timeout", "automatic") == 1)
            #expect(calls("other", "refused", "automatic") == 1)
            #expect(calls("get_weather", "error", "automatic") == nil, "a series nothing was counted in is not shown")
            #expect(samples[#"resolvekit_tool_execution_duration_seconds_count{function="get_weather"}"#] == 1)
            #expect(samples[#"resolvekit_tool_execution_duration_seconds_count{function="slow"}"#] == 1)
            #expect(samples[#"resolvekit_tool_execution_duration_seconds_sum{function="slow"}"#] == 5)
            #expect(samples[#"resolvekit_tool_execution_duration_seconds_count{function="delete_file"}"#] == nil)
            #expect(samples[#"resolvekit_tool_approval_wait_seconds_count{decided_by="policy"}"#] == 1)
            #expect(samples["resolvekit_tool_calls_running"] == 0)
            #expect(samples["resolvekit_approvals_pending"] == 0)
            // The refused call's result came when no turn ran: the backend answered 404, it no longer waits for it.
            #expect(samples[#"resolvekit_tool_results_total{outcome="delivered"}"#] == 4)
            #expect(samples[#"resolvekit_tool_results_total{outcome="abandoned"}"#] == 1)
            #expect(samples["resolvekit_tool_result_delivery_seconds_count"] == 4)
            #expect(samples[#"resolvekit_turns_total{ending="answered"}"#] == 4)
            #expect(samples[#"resolvekit_turn_duration_seconds_count{ending="answered"}"#] == 4)
            #expect(samples[#"resolvekit_events_received_total{type="tool_call_request"}"#] == 5)
            #expect(samples[#"resolvekit_events_received_total{type="turn_complete"}"#] == 4)
            // Four turns, each reporting its usage: prompt tokens 600 + 30 per round.
            let input =
                #"{gen_ai_operation_name="invoke_agent","#
                + #"gen_ai_provider_name="resolvekit",gen_ai_token_type="input"}"#
            #expect(samples["gen_ai_client_token_usage_count" + input] == 4)
            #expect(samples["gen_ai_client_token_usage_sum" + input] == 2640)
            // The runtime stopped: it no longer holds a session, a stream, or journal entries.
            #expect(samples["resolvekit_sessions_open"] == 0)
            #expect(samples["resolvekit_event_streams_connected"] == 0)
            #expect(samples["resolvekit_journal_entries"] == 0)
            #expect(samples["resolvekit_asks_queued"] == 0)

            let promtool = try ExternalProgram.promtool.require()
            let output = try await ProgramRunner.run(
                promtool, ["check", "metrics"], input: String(decoding: text, as: UTF8.self))
            #expect(output.termination.status == 0, "\(output.standardOutput)\(output.standardError)")
            #expect(
                output.standardOutput.isEmpty && output.standardError.isEmpty,
                "promtool's lint: \(output.standardOutput)\(output.standardError)")
        }
    }

    @Test func gaugesFollowTheSessionWhileItRuns() async throws {
        try await TelemetryHarness.run { harness in
            let samples = { ExpositionSamples(harness.telemetry.registry.exposition()) }
            try await harness.withRuntime(harness.configuration()) { runtime in
                #expect(samples()["resolvekit_sessions_open"] == 1)
                #expect(samples()["resolvekit_event_streams_connected"] == 1)
                #expect(samples()["resolvekit_journal_entries"] == 0)
                _ = try await runtime.ask("weather")
                // The call id stays in the journal (so a replay never runs it again) until the journal prunes it.
                #expect(samples()["resolvekit_journal_entries"] == 1)
            }
            #expect(samples()["resolvekit_sessions_open"] == 0)
            #expect(samples()["resolvekit_event_streams_connected"] == 0)
        }
    }
}

extension ResolveKitRuntime {
    /// Waits until `condition` holds, checking it at every event from now on.
    func waitFor(_ condition: @Sendable (ResolveKitRuntime) -> Bool) async {
        let events = self.events
        if condition(self) { return }
        for await _ in events where condition(self) { return }
    }

    /// Waits until the call of `function` is shown running.
    func waitForRunning(_ function: String) async {
        await waitFor { runtime in
            runtime.toolCallChecklist.contains { $0.functionName == function && $0.status == .running }
        }
    }
}
