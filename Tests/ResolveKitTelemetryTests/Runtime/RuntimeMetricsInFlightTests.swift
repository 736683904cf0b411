import Foundation
import ResolveKit
import ResolveKitChildProcess
import ResolveKitTelemetry
import ResolveKitTesting
import Testing

/// What the metrics say while things happen: retries, reconnects, a queued question, a pending approval.
@Suite(.timeLimit(.minutes(1)))
struct RuntimeMetricsInFlightTests {
    /// Reads the exposition until `condition` holds (at most 10 s): a reconnect happens on the stream's own time.
    static func samples(
        _ telemetry: Telemetry, until condition: (ExpositionSamples) -> Bool
    ) async -> ExpositionSamples {
        let deadline = ContinuousClock.now.advanced(by: .seconds(10))
        while true {
            let samples = ExpositionSamples(telemetry.registry.exposition())
            if condition(samples) || ContinuousClock.now > deadline || Task.isCancelled { return samples }
            try? await Task.sleep(for: .milliseconds(20))
        }
    }

    @Test func aResultPostedAgainIsARetryByReasonAndItsSecondRequestSaysSo() async throws {
        try await TelemetryHarness.run { harness in
            harness.backend.configuration.faults.fail(.init("POST", "/v1/sessions/*/tool-results"), status: 503)
            try await harness.withRuntime(harness.configuration()) { runtime in
                let result = try await runtime.ask("weather please")
                let callID = try #require(result.toolCalls.first?.id)
                // The backend may end the turn before it answers the result's POST: the delivery is counted then.
                let samples = await Self.samples(harness.telemetry) {
                    $0[#"resolvekit_tool_results_total{outcome="delivered"}"#] != nil
                }
                #expect(samples[#"resolvekit_tool_result_delivery_retries_total{reason="server_error"}"#] == 1)
                #expect(samples[#"resolvekit_tool_results_total{outcome="delivered"}"#] == 1)
                let spans = await harness.exportedSpans { spans in
                    spans.filter { $0.attributes["url.full"]?.hasSuffix("/tool-results") == true }.count == 2
                }
                let call = try #require(spans.first { $0.attributes["gen_ai.tool.call.id"] == callID.rawValue })
                let posts = spans.filter { $0.parentSpanID == call.spanID && $0.name == "POST" }
                    .sorted { $0.startTimeUnixNano < $1.startTimeUnixNano }
                #expect(posts.map { $0.attributes["http.response.status_code"] } == ["503", "200"])
                #expect(posts.first?.attributes["error.type"] == "503")
                #expect(posts.last?.attributes["http.request.resend_count"] == "1")
            }
        }
    }

    @Test func aStreamTheServerEndsIsCountedAsAReconnectAndConnectedAgain() async throws {
        // The backend ends every stream after 300 ms, as it does every 300 s.
        try await TelemetryHarness.run(streamConnectionCap: .milliseconds(300)) { harness in
            try await harness.withRuntime(harness.configuration()) { _ in
                let reconnected = await Self.samples(harness.telemetry) { samples in
                    (samples[#"resolvekit_event_stream_reconnects_total{reason="end_of_stream"}"#] ?? 0) >= 1
                        && samples["resolvekit_event_streams_connected"] == 1
                }
                #expect(
                    (reconnected[#"resolvekit_event_stream_reconnects_total{reason="end_of_stream"}"#] ?? 0) >= 1)
                #expect(reconnected["resolvekit_event_streams_connected"] == 1)
                #expect(reconnected[#"resolvekit_event_stream_reconnects_total{reason="transport_error"}"#] == nil)
            }
        }
    }

    @Test func aQuestionWaitingBehindATurnAndACallWaitingForAPersonAreGaugedWhileTheyWait() async throws {
        let gate = AsyncStream.makeStream(of: Void.self)
        let person = ClosureApprover { request in
            for await _ in gate.stream { break }
            return .perCall(
                Dictionary(
                    uniqueKeysWithValues: request.calls.map {
                        ($0.id, .attributed(.decline(reason: "no"), by: .person(uid: 1000, pid: 1, terminal: nil)))
                    }))
        }
        try await TelemetryHarness.run { harness in
            try await harness.withRuntime(harness.configuration(approver: person)) { runtime in
                let first = Task { try await runtime.ask("delete it") }
                let waiting = await Self.samples(harness.telemetry) { $0["resolvekit_approvals_pending"] == 1 }
                #expect(waiting["resolvekit_approvals_pending"] == 1)
                let second = Task { try await runtime.ask("weather please") }
                let queued = await Self.samples(harness.telemetry) { $0["resolvekit_asks_queued"] == 1 }
                #expect(queued["resolvekit_asks_queued"] == 1)
                gate.continuation.yield()
                _ = try await first.value
                _ = try await second.value
                let after = ExpositionSamples(harness.telemetry.registry.exposition())
                #expect(after["resolvekit_approvals_pending"] == 0)
                #expect(after["resolvekit_asks_queued"] == 0)
                #expect(after[#"resolvekit_tool_approval_wait_seconds_count{decided_by="person"}"#] == 1)
                #expect(
                    after[
                        #"resolvekit_tool_calls_total{function="delete_file",outcome="declined",decided_by="person"}"#]
                        == 1)
            }
        }
    }
}
