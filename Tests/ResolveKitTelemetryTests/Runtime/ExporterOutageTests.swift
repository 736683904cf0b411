import Foundation
import ResolveKit
import ResolveKitTelemetry
import ResolveKitTesting
import Testing

/// An OTLP endpoint that is down, slow or refusing costs a tool call nothing: ending a span only appends it to the
/// batch processor's queue, and what cannot be exported is counted as dropped. The timings here are loose bounds
/// (the machine is shared); `rk-bench tool-latency` measures the cost.
@Suite(.timeLimit(.minutes(2)), .serialized)
struct ExporterOutageTests {
    enum Outage: String, CaseIterable, Sendable {
        case down, slow, refusing
    }

    /// The median and the longest of `count` turns, each running one approval-free call.
    static func askTimes(_ runtime: ResolveKitRuntime, count: Int) async throws -> (median: Duration, longest: Duration)
    {
        var times: [Duration] = []
        for _ in 0..<count {
            let started = ContinuousClock.now
            let result = try await runtime.ask("weather please")
            times.append(ContinuousClock.now - started)
            #expect(result.toolCalls.first?.status == .completed)
        }
        times.sort()
        return (times[times.count / 2], times[times.count - 1])
    }

    @Test(arguments: Outage.allCases)
    func anEndpointThatFailsCostsACallNothingAndTheDroppedCounterSaysWhatWasLost(outage: Outage) async throws {
        let collector =
            outage == .refusing
            ? OTLPTraceCollector(repeating: .init(status: 503))
            : OTLPTraceCollector(repeating: .init(status: 200, delay: .seconds(10)))
        let closedPort = outage == .down ? try LoopbackRefusingPort() : nil
        defer { closedPort?.close() }
        try await TelemetryHarness.run(collector: collector) { harness in
            let endpoint = (closedPort?.baseURL ?? harness.collectorServer.baseURL) + "/v1/traces"
            let settings = TelemetryConfiguration(
                resource: TelemetryResource(serviceName: "outage"), traces: .init(endpoint: endpoint),
                batch: BatchSpanProcessor.Configuration(
                    scheduleDelay: .milliseconds(20), maxAttempts: 2, initialBackoff: .milliseconds(10)))
            let telemetry = try Telemetry(configuration: settings, transport: PlainHTTPTransport())
            let exporting = Task { await telemetry.run() }
            var on = harness.configuration()
            on.telemetry = telemetry
            var withoutTelemetry = (median: Duration.zero, longest: Duration.zero)
            var withOutage = withoutTelemetry
            try await harness.withRuntime(harness.configuration(recording: false)) { runtime in
                withoutTelemetry = try await Self.askTimes(runtime, count: 20)
            }
            try await harness.withRuntime(on) { runtime in
                withOutage = try await Self.askTimes(runtime, count: 20)
            }
            // A call that waited for the exporter would wait for its 10 s answer or timeout.
            #expect(withOutage.longest < .seconds(5), "the slowest turn took \(withOutage.longest)")
            #expect(
                withOutage.median < withoutTelemetry.median + .milliseconds(100),
                "median turn \(withOutage.median) with the \(outage) endpoint, \(withoutTelemetry.median) without")

            if outage == .slow {
                // Exports run at the kernel's idle priority: on a busy machine the first reaches the endpoint only
                // once a core is free, which may be after the turns.
                let exported = await pollUntil(timeout: .seconds(10)) { !harness.collector.requests.isEmpty }
                #expect(exported, "an export waits for its answer")
            }
            // Down or refusing: every batch is tried twice and dropped. Slow: the batch being sent is still waiting
            // for its answer; the shutdown drops what is queued and cancels it.
            if outage != .slow { #expect(await telemetry.flush(timeout: .seconds(20))) }
            await telemetry.shutdown(timeout: .seconds(1))
            exporting.cancel()
            await exporting.value
            let processor = try #require(telemetry.spanProcessor)
            let dropped = DropReasons.allCases.reduce(0) { $0 + processor.droppedCount($1) }
            #expect(processor.receivedCount >= 20 * 5, "five spans per turn at least")
            #expect(processor.exportedCount == 0)
            #expect(dropped == processor.receivedCount, "every span that ended is counted as dropped")
            if outage != .slow { #expect(processor.droppedCount(.exportFailed) == processor.receivedCount) }
            let samples = ExpositionSamples(telemetry.registry.exposition())
            let counted = DropReasons.allCases.reduce(0.0) {
                $0 + (samples[#"resolvekit_telemetry_spans_dropped_total{reason="\#($1.rawValue)"}"#] ?? 0)
            }
            #expect(Int(counted) == dropped)
            if outage == .refusing {
                let sent = harness.collector.requests.reduce(0) { $0 + OTLPTraceCollector.spans(in: $1.body).count }
                #expect(sent == 2 * processor.receivedCount, "each batch was sent twice")
            }
        }
    }

    typealias DropReasons = BatchSpanProcessor.DropReason

}
