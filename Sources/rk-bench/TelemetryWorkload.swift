import Foundation
import ResolveKitCore
import ResolveKitTelemetry
import ResolveKitTesting

/// `telemetry`: what metrics and spans cost the code that records them, the base for the "within 5 %" comparison
/// of the instrumented runtime.
/// - metric rows: thread CPU per operation (best of 5 runs of 1,000,000), and heap allocations per operation
///   counted exactly with glibc's `mtrace` in a child process (`allocs`);
/// - span rows: one span started and ended, under a disabled tracer, with its spans discarded, and exported in
///   batches over the plain transport to a loopback OTLP receiver that answers 200, or to a closed port; `p50` and
///   `p99` are the wall time of one `end()`, `exported` and `dropped` what became of the spans;
/// - `flush`, `flush-busy`: the time to export a full queue, on a quiet machine and with every core busy.
struct TelemetryWorkload: Workload {
    let name = "telemetry"
    let summary =
        "hot-path cost of metrics and spans: ns per operation (thread CPU), allocations, span end() p50/p99; flush (ms)"
    var metricIterations = 1_000_000
    var spanIterations = 100_000
    var repetitions = 5

    func run(log: @Sendable (String) -> Void) async throws(BenchFailure) -> [Measurement] {
        do {
            return try await measure(log: log)
        } catch let error as BenchFailure {
            throw error
        } catch {
            throw BenchFailure(message: "telemetry: \(error)")
        }
    }

    private func measure(log: @Sendable (String) -> Void) async throws -> [Measurement] {
        let (allocations, note) = try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(
                    with: Result {
                        var note: String?
                        let counts = try AllocationCounter.measure { note = $0 }
                        return (counts, note)
                    })
            }
        }
        if let note { log(note) }
        let operations = try TelemetryOperations()
        var rows: [Measurement] = []
        for operation in operations.metricOperations {
            var best = Double.infinity
            for _ in 0..<repetitions {
                let ((), seconds) = CPUTime.measure { operation.body(metricIterations) }
                best = min(best, seconds)
            }
            var row = Measurement(
                workload: name, contender: operation.name, value: best / Double(metricIterations) * 1e9, unit: "ns")
            if let count = allocations?[operation.name] { row.details["allocs"] = count }
            if operation.name.hasPrefix("otlp-gzip-span-") {
                // What the compression buys: one batch's bytes before and after.
                let body = TelemetryOperations.exportBody(operation.name.hasSuffix("json") ? .json : .protobuf)
                row.details["bytes_in"] = Double(body.count)
                row.details["bytes_out"] = Double(Gzip.compress(body).count)
            }
            rows.append(row)
            log("telemetry: \(operation.name) \(Report.rounded(row.value)) ns")
        }
        rows.append(try await spans("span-disabled", tracer: .disabled, allocations: nil))
        let discarding = Tracer(processor: DiscardingProcessor())
        rows.append(try await spans("span-discarded", tracer: discarding, allocations: allocations?["span-start-end"]))
        let receiver = try LoopbackHTTPServer.start { _ in
            LoopbackResponse(
                status: 200, headers: [("Content-Type", "application/json")], body: .bytes(Array("{}".utf8)))
        }
        rows.append(
            try await exported("span-exported", to: receiver.baseURL, allocations: allocations?["span-start-end"]))
        for busy in [false, true] {
            rows.append(try await flush(to: receiver.baseURL, busy: busy, log: log))
        }
        await receiver.stop()
        rows.append(try await exported("span-exporter-down", to: receiver.baseURL, allocations: nil))
        if let calls = allocations?["call-spans"] {
            log("telemetry: one call's three spans (call, approval, run) allocate \(Report.rounded(calls)) times")
        }
        return rows
    }

    /// Spans ended through a batch processor exporting to `url` over the plain transport.
    private func exported(_ contender: String, to url: String, allocations: Double?) async throws -> Measurement {
        let exporter = OTLPSpanExporter(
            endpoint: url + "/v1/traces", resource: TelemetryResource(serviceName: "rk-bench"),
            transport: try PlainHTTPTransport())
        let processor = try BatchSpanProcessor(
            exporter: exporter,
            configuration: BatchSpanProcessor.Configuration(maxQueueSize: 8192, maxExportBatchSize: 512))
        let loop = Task { await processor.run() }
        var row = try await spans(contender, tracer: Tracer(processor: processor), allocations: allocations)
        await processor.forceFlush(timeout: .seconds(10))
        await processor.shutdown(timeout: .seconds(10))
        await loop.value
        row.details["exported"] = Double(processor.exportedCount)
        row.details["dropped"] = Double(
            processor.droppedCount(.queueFull) + processor.droppedCount(.exportFailed)
                + processor.droppedCount(.shutdown))
        return row
    }

    /// Starts and ends `spanIterations` spans: thread CPU per span, and the wall time of each `end()`.
    private func spans(_ contender: String, tracer: Tracer, allocations: Double?) async throws -> Measurement {
        var ends = [Double](repeating: 0, count: spanIterations)
        let ((), seconds) = CPUTime.measure {
            for index in 0..<spanIterations {
                let span = tracer.startSpan("execute_tool function_7")
                let start = MonotonicTime.now()
                span.end()
                ends[index] = Double(MonotonicTime.now() - start)
            }
        }
        ends.sort()
        var row = Measurement(
            workload: name, contender: contender, value: seconds / Double(spanIterations) * 1e9, unit: "ns")
        row.details["p50"] = ends[ends.count / 2]
        row.details["p99"] = ends[ends.count * 99 / 100]
        if let allocations { row.details["allocs"] = allocations }
        return row
    }
}
