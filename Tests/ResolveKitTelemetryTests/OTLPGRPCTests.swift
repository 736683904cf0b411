import Foundation
import ResolveKitCore
import ResolveKitTelemetry
import ResolveKitTelemetryHTTP
import ResolveKitTesting
import Synchronization
import Testing

/// OTLP over gRPC (`OTEL_EXPORTER_OTLP_PROTOCOL=grpc`) against a real gRPC server: grpcio serving
/// opentelemetry-proto's `TraceService` and `MetricsService` (`Scripts/otlp_grpc_collector.py`).
/// One collector at a time: starting Python with grpcio takes a core for a while, and the exporters of other suites'
/// tests run at the kernel's idle priority.
@Suite(
    .serialized, .timeLimit(.minutes(1)),
    .enabled(if: ExternalProgram.grpcio.shouldRun, Comment(rawValue: ExternalProgram.grpcio.skipNote)))
struct OTLPGRPCTests {
    /// The collector, started for one test with `options`; what it received is read from its output file.
    final class Collector {
        let server: LoopbackServerProcess
        var address: String { "http://127.0.0.1:\(server.port)" }

        init(_ options: [String] = []) async throws {
            let python = try ExternalProgram.grpcio.require()
            let script = ProgramRunner.testsFolder.appending(path: "Scripts/otlp_grpc_collector.py").path
            server = try await LoopbackServerProcess.start(python, name: "otlp-grpc", logFile: "stderr.log") {
                port, directory in
                [script, "--port", String(port), "--out", directory + "/calls.jsonl"] + options
            }
        }

        /// Every call so far: its service, metadata and request (protobuf's JSON mapping).
        var calls: [JSONValue] {
            let text = (try? String(contentsOfFile: server.directory + "/calls.jsonl", encoding: .utf8)) ?? ""
            return text.split(separator: "\n").compactMap { try? JSONValue(parsing: Array($0.utf8)) }
        }

        func stop() async { await server.stop() }
    }

    static func spans(_ names: [String]) -> [FinishedSpan] {
        let collector = SpanCollector()
        let tracer = Tracer(processor: collector)
        let turn = tracer.startSpan("invoke_agent", kind: .client, parent: .root)
        for name in names { tracer.startSpan(name, parent: .span(turn)).end() }
        turn.end()
        return collector.finished
    }

    static func exporter(_ collector: Collector, compression: OTLPCompression = .none) -> OTLPSpanExporter {
        OTLPSpanExporter(
            endpoint: collector.address, encoding: .grpc, compression: compression,
            headers: [("api-key", "s3cret")], timeout: .seconds(5),
            resource: TelemetryResource(serviceName: "grpc-test"), transport: CurlOTLPTransport())
    }

    @Test(arguments: [OTLPCompression.none, .gzip])
    func spansReachTheCollectorsTraceService(compression: OTLPCompression) async throws {
        let collector = try await Collector()
        let exporter = Self.exporter(collector, compression: compression)
        let result = await exporter.export(Self.spans(["execute_tool get_time", "execute_tool get_disk"]))
        await exporter.shutdown()
        let (calls, log) = (collector.calls, collector.server.log)
        await collector.stop()
        #expect(result == .success, "\(log)")
        let call = try #require(calls.first)
        #expect(calls.count == 1)
        #expect(call["service"]?.stringValue == "traces")
        #expect(call["metadata"]?["api-key"]?.stringValue == "s3cret")
        #expect(call["metadata"]?["user-agent"]?.stringValue?.contains("resolvekit-linux/") == true)
        // The exporter's 5 s timeout reaches the collector as the call's deadline.
        let deadline = try #require(call["deadline_seconds"]?.doubleValue)
        #expect(deadline > 3 && deadline <= 5)
        let resource = call["request"]?["resourceSpans"]?[0]
        let service = resource?["resource"]?["attributes"]?.arrayValue?.first {
            $0["key"]?.stringValue == "service.name"
        }
        #expect(service?["value"]?["stringValue"]?.stringValue == "grpc-test")
        let names = resource?["scopeSpans"]?[0]?["spans"]?.arrayValue?.compactMap { $0["name"]?.stringValue }
        #expect(names?.sorted() == ["execute_tool get_disk", "execute_tool get_time", "invoke_agent"])
    }

    @Test func metricsReachTheCollectorsMetricsService() async throws {
        let collector = try await Collector()
        let metrics = try OTLPMetricsTests.recordedCatalog()
        let export = TelemetryConfiguration.Export(endpoint: collector.address + "/", encoding: .grpc)
        let pusher = OTLPMetricsPusher(
            registry: metrics.registry, export: export, resource: TelemetryResource(serviceName: "grpc-test"),
            transport: CurlOTLPTransport())
        let taken = await pusher.push()
        let (calls, log) = (collector.calls, collector.server.log)
        await collector.stop()
        #expect(taken, "\(log)")
        let call = try #require(calls.first)
        #expect(call["service"]?.stringValue == "metrics")
        let scope = call["request"]?["resourceMetrics"]?[0]?["scopeMetrics"]?[0]
        let toolCalls = scope?["metrics"]?.arrayValue?.first { $0["name"]?.stringValue == "resolvekit.tool.calls" }
        #expect(toolCalls?["sum"]?["dataPoints"]?[0]?["asDouble"]?.doubleValue == 1)
    }

    @Test func anUnavailableCollectorIsTriedAgain() async throws {
        let collector = try await Collector(["--fail", "1", "--fail-code", "14"])
        let exporter = Self.exporter(collector)
        let spans = Self.spans(["execute_tool get_time"])
        let first = await exporter.export(spans)
        let second = await exporter.export(spans)
        let third = await exporter.export(spans)
        await exporter.shutdown()
        let calls = collector.calls
        await collector.stop()
        #expect(first == .retry(after: nil))
        #expect(second == .success)
        #expect(third == .success)
        #expect(calls.count == 3)
    }

    @Test func resourceExhaustedWithARetryInfoWaitsTheDelayItGives() async throws {
        let collector = try await Collector(["--fail", "1", "--fail-code", "8", "--retry-delay-ms", "1500"])
        let exporter = Self.exporter(collector)
        let result = await exporter.export(Self.spans(["execute_tool get_time"]))
        await exporter.shutdown()
        await collector.stop()
        #expect(result == .retry(after: .milliseconds(1500)))
    }

    @Test func anInvalidArgumentDropsTheBatchAndTheLogNamesTheStatus() async throws {
        let collector = try await Collector(["--fail", "9", "--fail-code", "3"])
        let warnings = Mutex<[ResolveKitLogger.Record]>([])
        let logger = ResolveKitLogger(label: "test", minimumLevel: .warning) { record in
            warnings.withLock { $0.append(record) }
        }
        let exporter = OTLPSpanExporter(
            endpoint: collector.address, encoding: .grpc, resource: TelemetryResource(serviceName: "grpc-test"),
            transport: CurlOTLPTransport(), logger: logger)
        let result = await exporter.export(Self.spans(["execute_tool get_time"]))
        await exporter.shutdown()
        await collector.stop()
        #expect(result == .failure)
        let warning = try #require(warnings.withLock { $0 }.first { $0.message.contains("refused a batch") })
        #expect(warning.metadata["status"] == "INVALID_ARGUMENT (3)")
        #expect(warning.metadata["message"] == "collector says no (call 1)")
    }

    @Test func aPartialSuccessDropsWhatTheCollectorRejected() async throws {
        let collector = try await Collector(["--reject", "2"])
        let exporter = Self.exporter(collector)
        let result = await exporter.export(Self.spans(["execute_tool a", "execute_tool b"]))
        await exporter.shutdown()
        await collector.stop()
        #expect(result == .partialSuccess(rejected: 2))
    }

    @Test func theEnvironmentTurnsOnGRPCExportToTheCollectorsAddress() async throws {
        let collector = try await Collector()
        let configuration = try TelemetryConfiguration(
            environment: [
                "OTEL_EXPORTER_OTLP_ENDPOINT": collector.address, "OTEL_EXPORTER_OTLP_PROTOCOL": "grpc",
                "OTEL_BSP_SCHEDULE_DELAY": "50",
            ],
            defaultServiceName: "grpc-env")
        #expect(configuration.traces?.endpoint == collector.address)
        let telemetry = try Telemetry(configuration: configuration, transport: CurlOTLPTransport())
        let running = Task { await telemetry.run() }
        let tracer = telemetry.tracer
        tracer.startSpan("invoke_agent", kind: .client, parent: .root).end()
        #expect(await pollUntil { !collector.calls.isEmpty })
        await telemetry.shutdown(timeout: .seconds(5))
        await running.value
        let calls = collector.calls
        await collector.stop()
        #expect(calls.first?["service"]?.stringValue == "traces")
    }
}
