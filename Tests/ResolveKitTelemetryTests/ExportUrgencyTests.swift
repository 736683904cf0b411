import ResolveKitTesting
import Synchronization
import Testing

@testable import ResolveKitTelemetry

/// A flush asked for while a batch is on its way out at idle priority: the rest of that batch's export is urgent,
/// so only the step under way finishes where it started.
@Suite(.timeLimit(.minutes(1)))
struct ExportUrgencyTests {
    @Test func anExportUnderWayBecomesUrgentWhenAFlushIsAskedFor() async throws {
        let exporter = GatedExporter()
        let processor = try BatchSpanProcessorTests.batchesOfTwo(exporter)
        async let loop: Void = processor.run()
        let tracer = Tracer(processor: processor)
        for index in 0..<2 { tracer.startSpan("full \(index)").end() }
        #expect(await pollUntil { exporter.isHolding })
        #expect(exporter.isUrgentNow() == false)
        async let flushed = processor.forceFlush(timeout: .seconds(30))
        #expect(await pollUntil { exporter.isUrgentNow() })
        exporter.release()
        #expect(await flushed)
        await processor.shutdown(timeout: .seconds(30))
        await loop
        #expect(exporter.began == [false])
    }

    @Test func theOTLPExporterSendsUrgentlyABatchItEncodedRoutinelyWhenTheExportBecameUrgent() async throws {
        let transport = NotingTransport()
        let exporter = OTLPSpanExporter(
            endpoint: "http://127.0.0.1:9/v1/traces", resource: TelemetryResource(serviceName: "urgency-tests"),
            transport: transport)
        let span = BatchSpanStateMachineTests.span(1)
        #expect(await exporter.export([span], urgently: false) == .success)
        #expect(await exporter.export([span], urgently: false) { true } == .success)
        #expect(transport.urgency == [false, true])
    }
}

/// Holds its first export until released, and lets a test read whether that export is urgent meanwhile.
private final class GatedExporter: UrgencyAwareExporter {
    private struct State {
        var began: [Bool] = []
        var urgency: (@Sendable () -> Bool)?
        var gate: CheckedContinuation<Void, Never>?
        var released = false
    }

    private let state = Mutex(State())
    var began: [Bool] { state.withLock { $0.began } }
    var isHolding: Bool { state.withLock { $0.gate != nil } }
    func isUrgentNow() -> Bool { state.withLock { $0.urgency }?() ?? false }

    func release() {
        state.withLock { state in
            state.released = true
            return state.gate.take()
        }?.resume()
    }

    func export(_ spans: [FinishedSpan]) async -> SpanExportResult {
        await export(spans, urgently: false)
    }

    func export(_ spans: [FinishedSpan], urgently: Bool) async -> SpanExportResult {
        await export(spans, urgently: urgently) { false }
    }

    func export(
        _ spans: [FinishedSpan], urgently: Bool, isUrgentNow urgency: @escaping @Sendable () -> Bool
    ) async -> SpanExportResult {
        let first = state.withLock { state in
            state.began.append(urgently)
            state.urgency = urgency
            return state.began.count == 1
        }
        guard first else { return .success }
        await withCheckedContinuation { (gate: CheckedContinuation<Void, Never>) in
            let released = state.withLock { state in
                if !state.released { state.gate = gate }
                return state.released
            }
            if released { gate.resume() }
        }
        return .success
    }

    func shutdown() async {}
}

/// Answers every request with 200 at once, noting whether it was urgent.
private final class NotingTransport: OTLPTransport {
    private let noted = Mutex<[Bool]>([])
    var urgency: [Bool] { noted.withLock { $0 } }

    func send(_ request: OTLPRequest) async throws(TelemetryError) -> OTLPResponse {
        noted.withLock { $0.append(request.isUrgent) }
        return OTLPResponse(status: 200)
    }

    func shutdown() async {}
}
