import Foundation
import ResolveKit
import ResolveKitTelemetry
import ResolveKitTesting
import Synchronization

/// The reference backend and an OTLP collector on loopback ports, a telemetry exporting to the collector, and
/// runtimes pointed at the backend; everything stopped on every exit path. The backend's requests are recorded with
/// their `traceparent`.
struct TelemetryHarness: Sendable {
    struct SeenRequest: Sendable {
        var method: String
        var path: String
        var traceparent: String?
    }

    let backend: ReferenceBackend
    let server: LoopbackHTTPServer
    let collector: OTLPTraceCollector
    let collectorServer: LoopbackHTTPServer
    let telemetry: Telemetry
    private let seen: SeenRequests

    final class SeenRequests: Sendable {
        let list = Mutex<[SeenRequest]>([])
    }

    var requests: [SeenRequest] { seen.list.withLock { $0 } }

    /// Runs `body` with the harness; the telemetry's export loop runs meanwhile and is shut down after.
    static func run(
        collector: OTLPTraceCollector = OTLPTraceCollector(), exportTimeout: Duration = .seconds(10),
        streamConnectionCap: Duration = .seconds(300), _ body: (TelemetryHarness) async throws -> Void
    ) async throws {
        var configuration = ReferenceBackend.Configuration(script: TelemetryTestFunctions.script)
        configuration.streamConnectionCap = streamConnectionCap
        let backend = ReferenceBackend(configuration: configuration)
        let seen = SeenRequests()
        let server = try LoopbackHTTPServer.start { request in
            let traceparent = request.header("traceparent")
            let entry = SeenRequest(method: request.method, path: request.path, traceparent: traceparent)
            seen.list.withLock { $0.append(entry) }
            return await backend.handler(request)
        }
        let collectorServer = try LoopbackHTTPServer.start(handler: collector.handler)
        let settings = TelemetryConfiguration(
            resource: TelemetryResource(serviceName: "runtime-telemetry-test"),
            traces: .init(endpoint: collectorServer.baseURL + "/v1/traces", timeout: exportTimeout),
            batch: BatchSpanProcessor.Configuration(scheduleDelay: .milliseconds(50), maxAttempts: 2))
        let telemetry = try Telemetry(configuration: settings, transport: PlainHTTPTransport())
        let harness = TelemetryHarness(
            backend: backend, server: server, collector: collector, collectorServer: collectorServer,
            telemetry: telemetry, seen: seen)
        let exporting = Task { await telemetry.run() }
        func tearDown() async {
            await telemetry.shutdown(timeout: .seconds(2))
            exporting.cancel()
            await exporting.value
            await backend.stop()
            await server.stop()
            await collectorServer.stop()
        }
        do {
            try await body(harness)
        } catch {
            await tearDown()
            throw error
        }
        await tearDown()
    }

    /// A configuration for the backend, with this harness's telemetry when `recording`.
    func configuration(
        approver: any ToolApprover = TelemetryTestFunctions.policy, recording: Bool = true,
        clock: ResolveKitClock = .continuous, logger: ResolveKitLogger = .disabled
    ) -> ResolveKitConfiguration {
        ResolveKitConfiguration(
            baseURL: URL(string: server.baseURL)!, apiKeyProvider: { "rk_dev" },
            deviceIDProvider: { "device-" + UUID().uuidString }, functions: TelemetryTestFunctions.all,
            approver: approver, logger: logger, stateLocation: .inMemory, streamIdleTimeout: .seconds(3600),
            telemetry: recording ? telemetry : nil, clock: clock)
    }

    /// Starts a runtime, runs `body`, and stops the runtime whatever happens.
    func withRuntime(_ configuration: ResolveKitConfiguration, _ body: (ResolveKitRuntime) async throws -> Void)
        async throws
    {
        let runtime = ResolveKitRuntime(configuration: configuration)
        do {
            try await runtime.start()
            try await body(runtime)
        } catch {
            await runtime.stop()
            throw error
        }
        await runtime.stop()
    }

    /// Exports what is queued and returns the collector's spans of `traceID` (every span when `nil`), once
    /// `complete` holds for them (at most 20 s, for a machine busy with the whole suite): a request's span may end
    /// just after the turn its answer belongs to.
    func exportedSpans(
        trace traceID: String? = nil, until complete: ([OTLPTraceCollector.Span]) -> Bool = { _ in true }
    ) async -> [OTLPTraceCollector.Span] {
        let deadline = ContinuousClock.now.advanced(by: .seconds(20))
        while true {
            await telemetry.flush(timeout: .seconds(30))
            let spans = collector.spans.filter { traceID == nil || $0.traceID == traceID }
            if complete(spans) || ContinuousClock.now > deadline || Task.isCancelled { return spans }
            try? await Task.sleep(for: .milliseconds(10))
        }
    }
}
