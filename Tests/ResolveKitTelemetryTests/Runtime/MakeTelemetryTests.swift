import Foundation
import ResolveKit
import ResolveKitHTTP
import ResolveKitTelemetry
import ResolveKitTesting
import Testing

@Suite(.timeLimit(.minutes(1)))
struct MakeTelemetryTests {
    @Test func telemetryFromTheEnvironmentExportsWithTheConfigurationsNetworkSettings() async throws {
        let collector = OTLPTraceCollector()
        try await LoopbackHTTPServer.withServer(handler: collector.handler) { receiver in
            var configuration = ResolveKitConfiguration(apiKeyProvider: { "rk_dev" })
            configuration.network.headers.add(name: "X-Company-Gateway", value: "team-7")
            let telemetry = try configuration.makeTelemetry(
                serviceName: "make-telemetry-test",
                environment: ["OTEL_EXPORTER_OTLP_ENDPOINT": receiver.baseURL, "OTEL_RESOURCE_ATTRIBUTES": "team=7"])
            let exporting = Task { await telemetry.run() }
            telemetry.tracer.startSpan("probe").end()
            #expect(await telemetry.flush(timeout: .seconds(30)))
            await telemetry.shutdown(timeout: .seconds(2))
            await exporting.value
            let request = try #require(collector.requests.first)
            #expect(request.path == "/v1/traces")
            #expect(request.header("X-Company-Gateway") == "team-7")
            #expect(collector.spans.map(\.name) == ["probe"])
            #expect(collector.spans.first?.serviceName == "make-telemetry-test")
        }
    }

    @Test func anEndpointThatIsNotAURLIsAConfigurationErrorNamingTheVariable() {
        let configuration = ResolveKitConfiguration(apiKeyProvider: { "rk_dev" })
        #expect {
            try configuration.makeTelemetry(serviceName: "x", environment: ["OTEL_EXPORTER_OTLP_ENDPOINT": "collector"])
        } throws: { error in
            (error as? ResolveKitError)?.code == .invalidConfiguration
                && "\(error)".contains("OTEL_EXPORTER_OTLP_ENDPOINT")
        }
    }
}
