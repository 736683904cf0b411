public import Foundation
import ResolveKitHTTP
public import ResolveKitTelemetry
import ResolveKitTelemetryHTTP

extension ResolveKitConfiguration {
    /// Telemetry as OpenTelemetry's standard variables say (`OTEL_SERVICE_NAME`, `OTEL_EXPORTER_OTLP_ENDPOINT`,
    /// `OTEL_TRACES_SAMPLER`, `OTEL_SDK_DISABLED` …; the README's "Operating it" lists them), exporting through a
    /// libcurl client of its own with this configuration's ``network`` settings (a private CA, a client
    /// certificate, a proxy). Values it had to ignore are logged as warnings through ``logger``.
    ///
    /// ```swift
    /// var configuration = ResolveKitConfiguration(apiKeyProvider: { key })
    /// let telemetry = try configuration.makeTelemetry(serviceName: "my-service")
    /// configuration.telemetry = telemetry
    /// async let exporting: Void = telemetry.run()
    /// ```
    /// - Parameters:
    ///   - serviceName: `service.name` unless `OTEL_SERVICE_NAME` or `OTEL_RESOURCE_ATTRIBUTES` names one.
    ///   - environment: Where the variables are read; the process's by default.
    /// - Throws: ``ResolveKitError/Code/invalidConfiguration`` for an endpoint that is not an `http://` or
    ///   `https://` URL, or a protocol other than `http/protobuf` and `http/json`, with the ``TelemetryError`` as
    ///   its cause.
    public func makeTelemetry(
        serviceName: String, environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(ResolveKitError) -> Telemetry {
        do {
            let settings = try TelemetryConfiguration(environment: environment, defaultServiceName: serviceName)
            for warning in settings.warnings { logger.warning("telemetry: \(warning)") }
            // A transport of its own starts a thread for the exports someone waits for; with nothing to export,
            // the runtime's shared client stands in, unused.
            let exports = !settings.isDisabled && (settings.traces != nil || settings.metrics != nil)
            let transport =
                exports
                ? CurlOTLPTransport(network: network)
                : CurlOTLPTransport(client: ResolveKitRuntime.sharedHTTPClient, network: network)
            return try Telemetry(configuration: settings, transport: transport, logger: logger)
        } catch {
            throw ResolveKitError(.invalidConfiguration, "Telemetry: \(error.message)", underlying: error)
        }
    }
}
