import ResolveKitChildProcess
import ResolveKitCore
import ResolveKitTelemetry
import ResolveKitTesting
import Synchronization
import Testing

@Suite(.timeLimit(.minutes(1)))
struct OTLPMetricsTests {
    /// Parses an OTLP/HTTP metrics export (the file named first: protobuf, or JSON when it begins with `{`, gzipped
    /// or not; no ids to map back) as an `ExportMetricsServiceRequest` and prints what a collector would read of
    /// three metrics.
    static let script = """
        import gzip, sys
        from google.protobuf import json_format
        from opentelemetry.proto.collector.metrics.v1.metrics_service_pb2 import ExportMetricsServiceRequest
        body = open(sys.argv[1], "rb").read()
        if body.startswith(b"\\x1f\\x8b"):
            body = gzip.decompress(body)
        if body.startswith(b"{"):
            request = json_format.Parse(body, ExportMetricsServiceRequest())
        else:
            request = ExportMetricsServiceRequest.FromString(body)
        metrics = {m.name: m for rm in request.resource_metrics for sm in rm.scope_metrics for m in sm.metrics}
        calls = metrics["resolvekit.tool.calls"]
        tokens = metrics["gen_ai.client.token.usage"].histogram.data_points
        def token_type(point):
            return {a.key: a.value.string_value for a in point.attributes}["gen_ai.token.type"]
        point = [p for p in tokens if token_type(p) == "input"][0]
        print(calls.sum.is_monotonic, calls.sum.aggregation_temporality, int(calls.sum.data_points[0].as_double),
              metrics["gen_ai.client.token.usage"].unit, point.count, int(point.sum), list(point.bucket_counts)[:6],
              metrics["resolvekit.sessions.open"].gauge.data_points[0].as_double)
        """

    static func recordedCatalog() throws -> ResolveKitMetrics {
        let metrics = try CatalogNames.catalog()
        metrics.sessionOpened()
        metrics.toolCallFinished(function: "get_weather", outcome: .success, decidedBy: .policy, duration: nil)
        metrics.turnFinished(
            ending: .answered, duration: .seconds(1), usage: TokenUsage(promptTokens: 100, completionTokens: 7))
        return metrics
    }

    @Test(
        .enabled(
            if: ExternalProgram.opentelemetryProto.shouldRun,
            Comment(rawValue: ExternalProgram.opentelemetryProto.skipNote)), arguments: [OTLPEncoding.protobuf, .json])
    func aRegistryDecodesAsAnExportMetricsServiceRequest(encoding: OTLPEncoding) async throws {
        let python = try ExternalProgram.opentelemetryProto.require()
        let metrics = try Self.recordedCatalog()
        let body = OTLPMetricsEncoding.encode(
            metrics.registry.snapshot(), resource: TelemetryResource(serviceName: "metrics-test"),
            startTimeUnixNano: 1_000, timeUnixNano: 2_000, as: encoding)
        let output = try await ProgramRunner.withTemporaryFile(named: "metrics", body) { path in
            try await ProgramRunner.run(python, ["-c", Self.script, path])
        }
        #expect(output.termination.status == 0, "\(output.standardError)")
        // 100 input tokens fall in the (64, 256] bucket, the fifth of the GenAI conventions' bounds.
        #expect(output.standardOutput == "True 2 1 {token} 1 100 [0, 0, 0, 0, 1, 0] 1.0\n")
    }

    @Test(
        .enabled(
            if: ExternalProgram.opentelemetryProto.shouldRun,
            Comment(rawValue: ExternalProgram.opentelemetryProto.skipNote)))
    func gzipCompressesBothSignalsAndPythonReadsThem() async throws {
        let python = try ExternalProgram.opentelemetryProto.require()
        let receiver = OTLPReceiver()
        try await LoopbackHTTPServer.withServer(handler: receiver.handler) { server in
            let metrics = try Self.recordedCatalog()
            let configuration = try TelemetryConfiguration(
                environment: [
                    "OTEL_EXPORTER_OTLP_ENDPOINT": server.baseURL, "OTEL_EXPORTER_OTLP_COMPRESSION": "gzip",
                    "OTEL_METRICS_EXPORTER": "otlp",
                ],
                defaultServiceName: "gzip")
            let export = try #require(configuration.metrics)
            #expect(export.compression == .gzip && configuration.traces?.compression == .gzip)
            let pusher = OTLPMetricsPusher(
                registry: metrics.registry, export: export, resource: configuration.resource,
                transport: try PlainHTTPTransport(), interval: .seconds(60))
            #expect(await pusher.push())
            let telemetry = try Telemetry(configuration: configuration, transport: try PlainHTTPTransport())
            await telemetry.exporting {
                for index in 0..<50 {
                    telemetry.tracer.startTurn(sessionID: "s", requestID: "r\(index)").finishTurn(
                        ending: .answered, turnID: nil, usage: nil)
                }
            }
            for request in receiver.requests { #expect(request.header("Content-Encoding") == "gzip") }
            let pushed = try #require(receiver.requests.first { $0.path == "/v1/metrics" })
            let output = try await ProgramRunner.withTemporaryFile(named: "metrics", pushed.body) { path in
                try await ProgramRunner.run(python, ["-c", Self.script, path])
            }
            #expect(
                output.standardOutput == "True 2 1 {token} 1 100 [0, 0, 0, 0, 1, 0] 1.0\n", "\(output.standardError)")
            let traces = try #require(receiver.requests.first { $0.path == "/v1/traces" })
            let spans = OTLPTraceCollector.spans(in: traces.body)
            #expect(spans.count == 50 && spans.allSatisfy { $0.name == "invoke_agent" })
            let inflated = try Gzip.decompress(traces.body, maxOutput: 1 << 20)
            #expect(traces.body.count * 3 < inflated.count, "\(inflated.count) → \(traces.body.count) bytes")
        }
    }

    @Test func theTestCollectorReadsGzippedExportsAndRefusesABodyThatDoesNotInflate() async throws {
        let collector = OTLPTraceCollector()
        try await LoopbackHTTPServer.withServer(handler: collector.handler) { server in
            _ = try await Telemetry.exported(
                ["OTEL_EXPORTER_OTLP_ENDPOINT": server.baseURL, "OTEL_EXPORTER_OTLP_COMPRESSION": "gzip"]
            ) { telemetry in
                telemetry.tracer.startSpan("zipped").end()
            }
            #expect(collector.spans.map(\.name) == ["zipped"])
            let damaged = OTLPRequest(
                url: server.baseURL + "/v1/traces", headers: [("Content-Encoding", "gzip")], body: [0x1F, 0x8B, 8],
                timeout: .seconds(5))
            #expect(try await PlainHTTPTransport().send(damaged).status == 400)
            #expect(collector.spans.count == 1)
        }
    }

    @Test func anUnknownCompressionNamesItsVariable() {
        let error = #expect(throws: TelemetryError.self) {
            try TelemetryConfiguration(
                environment: [
                    "OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318", "OTEL_EXPORTER_OTLP_TRACES_COMPRESSION": "zstd",
                ],
                defaultServiceName: "x")
        }
        #expect(
            error?.message
                == "OTEL_EXPORTER_OTLP_TRACES_COMPRESSION=zstd: the compressions are none (the default) and gzip")
    }

    @Test func thePusherPostsEveryIntervalAndOnceMoreAtShutdown() async throws {
        let receiver = OTLPReceiver()
        try await LoopbackHTTPServer.withServer(handler: receiver.handler) { server in
            let clock = ManualClock()
            let metrics = try Self.recordedCatalog()
            let transport = UrgencyNotingTransport(try PlainHTTPTransport())
            let pusher = OTLPMetricsPusher(
                registry: metrics.registry,
                export: TelemetryConfiguration.Export(
                    endpoint: server.baseURL + "/v1/metrics", headers: [("api-key", "k")], timeout: .seconds(5)),
                resource: TelemetryResource(serviceName: "metrics-test"), transport: transport,
                interval: .seconds(60), clock: clock)
            async let loop: Void = pusher.run()
            await clock.waitForSleeper(at: clock.now.advanced(by: .seconds(60)))
            #expect(receiver.requests.isEmpty)
            clock.advance(by: .seconds(60))
            #expect(await pollUntil { receiver.requests.count == 1 })
            await clock.waitForSleeper(at: clock.now.advanced(by: .seconds(60)))
            await pusher.shutdown(timeout: .seconds(30))
            await loop
            #expect(receiver.requests.count == 2)
            #expect(transport.urgency == [false, true], "the last push, at shutdown, is waited for")
            let request = try #require(receiver.requests.last)
            #expect(request.path == "/v1/metrics")
            #expect(request.header("api-key") == "k")
            // Protobuf by default, as OpenTelemetry's exporters send; its strings are written as they are.
            #expect(request.header("Content-Type") == "application/x-protobuf")
            #expect(String(decoding: request.body, as: UTF8.self).contains("resolvekit.tool.calls"))
        }
    }

    @Test func aPushPartlyRejectedOrRefusedIsLoggedWithTheEndpointsMessage() async throws {
        // ExportMetricsServiceResponse { partial_success { rejected_data_points: 3, error_message: "bad unit" } }
        let partial: [UInt8] = [0x0A, 0x0C, 0x08, 0x03, 0x12, 0x08] + "bad unit".utf8
        let receiver = OTLPReceiver([
            OTLPReceiver.Reply(status: 200, body: ("application/x-protobuf", partial)),
            OTLPReceiver.Reply(status: 401, body: ("application/json", Array(#"{"code":16,"message":"no key"}"#.utf8))),
        ])
        let warnings = Mutex<[String]>([])
        let logger = ResolveKitLogger(label: "test", minimumLevel: .warning) { record in
            warnings.withLock { $0.append("\(record.message): \(record.metadata["message"] ?? "")") }
        }
        try await LoopbackHTTPServer.withServer(handler: receiver.handler) { server in
            let pusher = OTLPMetricsPusher(
                registry: try Self.recordedCatalog().registry,
                export: TelemetryConfiguration.Export(endpoint: server.baseURL + "/v1/metrics"),
                resource: TelemetryResource(serviceName: "metrics-test"), transport: try PlainHTTPTransport(),
                logger: logger)
            #expect(await pusher.push(), "a partial success is taken")
            #expect(await !pusher.push())
        }
        #expect(
            warnings.withLock { $0 } == [
                "OTLP endpoint rejected 3 data points: bad unit", "OTLP metrics push refused: no key",
            ])
    }

    @Test func theTelemetryFacadeExportsWhatItsConfigurationSays() async throws {
        let receiver = OTLPReceiver()
        try await LoopbackHTTPServer.withServer(handler: receiver.handler) { server in
            let telemetry = try await Telemetry.exported(
                ["OTEL_EXPORTER_OTLP_ENDPOINT": server.baseURL, "OTEL_SERVICE_NAME": "facade"]
            ) { telemetry in
                telemetry.tracer.startTurn(sessionID: "s", requestID: "r").finishTurn(
                    ending: .answered, turnID: nil, usage: nil)
            }
            #expect(telemetry.metricsPusher == nil)
            try #require(receiver.requests.map(\.path) == ["/v1/traces"])
            #expect(receiver.requests[0].header("Content-Type") == "application/x-protobuf")
            #expect(OTLPTraceCollector.spans(in: receiver.requests[0].body).map(\.serviceName) == ["facade"])
            let disabled = try Telemetry(
                configuration: TelemetryConfiguration(
                    environment: ["OTEL_EXPORTER_OTLP_ENDPOINT": server.baseURL, "OTEL_SDK_DISABLED": "true"],
                    defaultServiceName: "x"),
                transport: try PlainHTTPTransport())
            #expect(disabled.spanProcessor == nil)
            #expect(!disabled.tracer.startSpan("x").isRecording)
        }
    }

    @Test func theProtocolVariableChoosesJSON() async throws {
        let receiver = OTLPReceiver()
        try await LoopbackHTTPServer.withServer(handler: receiver.handler) { server in
            _ = try await Telemetry.exported(
                [
                    "OTEL_EXPORTER_OTLP_ENDPOINT": server.baseURL, "OTEL_EXPORTER_OTLP_PROTOCOL": "http/json",
                    "OTEL_METRICS_EXPORTER": "otlp", "OTEL_EXPORTER_OTLP_METRICS_PROTOCOL": "http/protobuf",
                ], serviceName: "json"
            ) { telemetry in
                telemetry.tracer.startTurn(sessionID: "s", requestID: "r").finishTurn(
                    ending: .answered, turnID: nil, usage: nil)
            }
            let types = Dictionary(
                receiver.requests.map { ($0.path, $0.header("Content-Type")) }, uniquingKeysWith: { first, _ in first })
            #expect(types == ["/v1/traces": "application/json", "/v1/metrics": "application/x-protobuf"])
            let traces = try #require(receiver.requests.first { $0.path == "/v1/traces" })
            #expect(String(decoding: traces.body, as: UTF8.self).contains(#""stringValue":"json""#))
        }
    }
}

extension Telemetry {
    /// A `Telemetry` configured from `environment` (`serviceName` when it names none), over plain HTTP, whose export
    /// loop ran while `record` recorded with it, shut down.
    fileprivate static func exported(
        _ environment: [String: String], serviceName: String = "unused", _ record: (Telemetry) -> Void
    ) async throws -> Telemetry {
        let configuration = try TelemetryConfiguration(environment: environment, defaultServiceName: serviceName)
        let telemetry = try Telemetry(configuration: configuration, transport: try PlainHTTPTransport())
        await telemetry.exporting { record(telemetry) }
        return telemetry
    }

    /// Runs the export loop while `record` records, then shuts down (exporting what is queued) and waits for the
    /// loop to end. The exports run at the kernel's idle priority: on a machine busy with the whole parallel run they
    /// get a core only now and then, so the shutdown has time to spare.
    fileprivate func exporting(_ record: () -> Void) async {
        async let loop: Void = run()
        record()
        await shutdown(timeout: .seconds(30))
        await loop
    }
}

/// A transport that notes whether each request was urgent, and passes it on.
private final class UrgencyNotingTransport: OTLPTransport {
    private let base: any OTLPTransport
    private let noted = Mutex<[Bool]>([])
    var urgency: [Bool] { noted.withLock { $0 } }

    init(_ base: any OTLPTransport) {
        self.base = base
    }

    func send(_ request: OTLPRequest) async throws(TelemetryError) -> OTLPResponse {
        noted.withLock { $0.append(request.isUrgent) }
        return try await base.send(request)
    }

    func shutdown() async {
        await base.shutdown()
    }
}
