import Foundation
import ResolveKitTelemetry
import ResolveKitTesting
import Synchronization

extension TelemetryWorkload {
    /// `flush`, `flush-busy`: a full queue of spans (16 batches of 512) flushed on a quiet machine, and while as many
    /// threads as the machine has cores, and one more, spin at normal priority: the wall time until every span was
    /// exported (ms), and how many were. The second is a service asked to stop (`drain`, SIGTERM) while its functions
    /// keep every core busy: the last export must not wait for an idle core that never comes.
    func flush(to url: String, busy: Bool, log: @Sendable (String) -> Void) async throws -> Measurement {
        let spanCount = 16 * 512
        let exporter = OTLPSpanExporter(
            endpoint: url + "/v1/traces", resource: TelemetryResource(serviceName: "rk-bench"),
            transport: try PlainHTTPTransport())
        let processor = try BatchSpanProcessor(
            exporter: exporter,
            configuration: BatchSpanProcessor.Configuration(
                maxQueueSize: spanCount, maxExportBatchSize: 512, scheduleDelay: .seconds(3600)))
        let tracer = Tracer(processor: processor)
        for index in 0..<spanCount {
            tracer.startSpan("execute_tool function_\(index % 8)").end()
        }
        let spinners = BusyThreads(count: busy ? ProcessInfo.processInfo.activeProcessorCount + 1 : 0)
        let started = ContinuousClock.now
        // As `Telemetry.run()` runs it: at background priority.
        let loop = Task.detached(priority: .background) { await processor.run() }
        let flushed = await processor.forceFlush(timeout: .seconds(120))
        let seconds = (ContinuousClock.now - started).inSeconds
        spinners.stop()
        await processor.shutdown(timeout: .seconds(10))
        await loop.value
        let contender = busy ? "flush-busy" : "flush"
        log("telemetry: \(contender): \(spanCount) spans flushed in \(Report.rounded(seconds * 1000)) ms")
        return Measurement(
            workload: name, contender: contender, value: seconds * 1000, unit: "ms",
            details: [
                "spans": Double(spanCount), "exported": Double(processor.exportedCount),
                "flushed": flushed ? 1 : 0, "busy_threads": Double(spinners.count),
            ])
    }
}

/// Threads that spin at normal priority until stopped: a machine whose every core a service's work takes.
private final class BusyThreads: Sendable {
    let count: Int
    private let stopped = Atomic<Bool>(false)

    init(count: Int) {
        self.count = count
        for _ in 0..<count {
            Thread.detachNewThread { [self] in
                var spins = 0
                while !stopped.load(ordering: .relaxed) { spins &+= 1 }
                blackHole(spins)
            }
        }
    }

    func stop() {
        stopped.store(true, ordering: .relaxed)
    }
}
