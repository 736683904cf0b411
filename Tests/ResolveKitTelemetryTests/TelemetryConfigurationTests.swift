import ResolveKitTelemetry
import Testing

struct TelemetryConfigurationTests {
    static func read(_ environment: [String: String]) throws -> TelemetryConfiguration {
        try TelemetryConfiguration(environment: environment, defaultServiceName: "rk-service")
    }

    @Test func withoutVariablesNothingIsExportedAndTheDefaultsHold() throws {
        let configuration = try Self.read([:])
        #expect(!configuration.isDisabled)
        #expect(configuration.traces == nil)
        #expect(configuration.metrics == nil)
        #expect(configuration.resource.serviceName == "rk-service")
        #expect(configuration.sampler == .parentBased(root: .alwaysOn))
        #expect(configuration.batch == BatchSpanProcessor.Configuration())
        #expect(configuration.metricExportInterval == .seconds(60))
        #expect(configuration.warnings.isEmpty)
    }

    @Test func theGenericEndpointGetsTheSignalPathAppended() throws {
        for base in ["http://collector:4318", "http://collector:4318/"] {
            let configuration = try Self.read(["OTEL_EXPORTER_OTLP_ENDPOINT": base])
            #expect(configuration.traces?.endpoint == "http://collector:4318/v1/traces")
            #expect(configuration.metrics == nil, "metrics are scraped unless a push is asked for")
        }
        let both = try Self.read(["OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318/base", "OTEL_METRICS_EXPORTER": "otlp"])
        #expect(both.metrics?.endpoint == "http://c:4318/base/v1/metrics")
    }

    @Test func aSignalEndpointIsUsedAsIs() throws {
        let configuration = try Self.read([
            "OTEL_EXPORTER_OTLP_ENDPOINT": "http://generic:4318",
            "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "https://traces.example.com/custom",
            "OTEL_EXPORTER_OTLP_METRICS_ENDPOINT": "http://metrics:9090",
        ])
        #expect(configuration.traces?.endpoint == "https://traces.example.com/custom")
        #expect(configuration.metrics?.endpoint == "http://metrics:9090")
    }

    @Test func exportingWithoutAnEndpointGoesToTheLocalCollector() throws {
        let configuration = try Self.read(["OTEL_TRACES_EXPORTER": "otlp", "OTEL_METRICS_EXPORTER": "otlp"])
        #expect(configuration.traces?.endpoint == "http://localhost:4318/v1/traces")
        #expect(configuration.metrics?.endpoint == "http://localhost:4318/v1/metrics")
        let none = try Self.read(["OTEL_TRACES_EXPORTER": "none", "OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318"])
        #expect(none.traces == nil)
    }

    @Test func headersArePercentDecodedAndASignalsOwnReplaceTheGenericOnes() throws {
        let configuration = try Self.read([
            "OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318", "OTEL_METRICS_EXPORTER": "otlp",
            "OTEL_EXPORTER_OTLP_HEADERS": "api-key=secret%20value, x-tenant = a%2Cb ,broken",
            "OTEL_EXPORTER_OTLP_TRACES_HEADERS": "authorization=Bearer%20t0k%3Den",
        ])
        #expect(configuration.traces?.headers.map(\.name) == ["authorization"])
        #expect(configuration.traces?.headers.first?.value == "Bearer t0k=en")
        let metrics = configuration.metrics?.headers ?? []
        #expect(metrics.map(\.name) == ["api-key", "x-tenant"])
        #expect(metrics.map(\.value) == ["secret value", "a,b"])
        #expect(configuration.warnings.count == 1)
        #expect(!configuration.warnings.joined().contains("broken"), "a warning never repeats a header")
        #expect(!"\(configuration.traces!)".contains("t0k"), "header values are not described")
    }

    @Test func timeoutsAreMillisecondsWithTheSignalsOwnFirst() throws {
        let configuration = try Self.read([
            "OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318", "OTEL_METRICS_EXPORTER": "otlp",
            "OTEL_EXPORTER_OTLP_TIMEOUT": "2500", "OTEL_EXPORTER_OTLP_METRICS_TIMEOUT": "700",
        ])
        #expect(configuration.traces?.timeout == .milliseconds(2500))
        #expect(configuration.metrics?.timeout == .milliseconds(700))
        let capped = try Self.read([
            "OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318", "OTEL_BSP_EXPORT_TIMEOUT": "1000",
        ])
        #expect(capped.traces?.timeout == .seconds(1), "the batch export timeout bounds a request")
    }

    @Test(
        arguments: [
            ("always_on", nil, Sampler.alwaysOn),
            ("always_off", nil, .alwaysOff),
            ("traceidratio", "0.25", .traceIDRatio(0.25)),
            ("parentbased_always_on", nil, .parentBased(root: .alwaysOn)),
            ("parentbased_always_off", nil, .parentBased(root: .alwaysOff)),
            ("parentbased_traceidratio", "0.5", .parentBased(root: .traceIDRatio(0.5))),
            ("PARENTBASED_TRACEIDRATIO", nil, .parentBased(root: .traceIDRatio(1))),
        ] as [(String, String?, Sampler)])
    func theSamplerComesFromItsVariables(name: String, argument: String?, sampler: Sampler) throws {
        var environment = ["OTEL_TRACES_SAMPLER": name]
        environment["OTEL_TRACES_SAMPLER_ARG"] = argument
        let configuration = try Self.read(environment)
        #expect(configuration.sampler == sampler)
        #expect(configuration.warnings.isEmpty)
    }

    @Test func unreadableValuesAreIgnoredWithAWarning() throws {
        let configuration = try Self.read([
            "OTEL_TRACES_SAMPLER": "jaeger_remote", "OTEL_TRACES_SAMPLER_ARG": "2",
            "OTEL_BSP_MAX_QUEUE_SIZE": "many", "OTEL_BSP_SCHEDULE_DELAY": "-5", "OTEL_SDK_DISABLED": "yes",
            "OTEL_BSP_MAX_EXPORT_BATCH_SIZE": "4096",
        ])
        #expect(configuration.sampler == .parentBased(root: .alwaysOn))
        #expect(configuration.batch.maxQueueSize == 2048)
        #expect(configuration.batch.maxExportBatchSize == 2048)
        #expect(configuration.batch.scheduleDelay == .seconds(5))
        #expect(!configuration.isDisabled)
        #expect(configuration.warnings.count == 5)
        let ratio = try Self.read(["OTEL_TRACES_SAMPLER": "traceidratio", "OTEL_TRACES_SAMPLER_ARG": "2"])
        #expect(ratio.sampler == .traceIDRatio(1))
        #expect(ratio.warnings.count == 1)
    }

    @Test func theServiceNameComesFromItsVariableThenFromTheResourceAttributes() throws {
        let attributes = "service.name=from-attributes,deployment.environment=prod%20eu,host.name=h1"
        let named = try Self.read(["OTEL_SERVICE_NAME": "checkout", "OTEL_RESOURCE_ATTRIBUTES": attributes])
        #expect(named.resource.serviceName == "checkout")
        #expect(named.resource.attributes.contains(SpanAttribute("deployment.environment", "prod eu")))
        #expect(named.resource.attributes.filter { $0.key == "service.name" }.count == 1)
        let fromAttributes = try Self.read(["OTEL_RESOURCE_ATTRIBUTES": attributes])
        #expect(fromAttributes.resource.serviceName == "from-attributes")
        #expect(fromAttributes.resource.attributes.contains(SpanAttribute("telemetry.sdk.language", "swift")))
    }

    @Test func theProtocolIsProtobufUnlessAVariableSaysJSONForAllSignalsOrOne() throws {
        let endpoints = ["OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318", "OTEL_METRICS_EXPORTER": "otlp"]
        let unset = try Self.read(endpoints)
        #expect(unset.traces?.encoding == .protobuf && unset.metrics?.encoding == .protobuf)
        let json = try Self.read(endpoints.merging(["OTEL_EXPORTER_OTLP_PROTOCOL": "http/json"]) { $1 })
        #expect(json.traces?.encoding == .json && json.metrics?.encoding == .json)
        let mixed = try Self.read(
            endpoints.merging([
                "OTEL_EXPORTER_OTLP_PROTOCOL": "http/json", "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL": "http/protobuf",
            ]) { $1 })
        #expect(mixed.traces?.encoding == .protobuf && mixed.metrics?.encoding == .json)
        #expect(mixed.traces?.description == "http://c:4318/v1/traces (http/protobuf, timeout 10.0 seconds)")
    }

    @Test func aProtocolNotSpokenNamesItsVariableAndTheThreeThatAre() {
        let error = #expect(throws: TelemetryError.self) {
            try Self.read([
                "OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318", "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL": "thrift",
            ])
        }
        #expect(error?.message.hasPrefix("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL=thrift: ") == true)
        #expect(error?.message.contains("http/protobuf (the default), http/json and grpc") == true)
    }

    @Test func overGRPCAnEndpointIsTheCollectorsAddressAndTheDefaultPortIs4317() throws {
        let generic = try Self.read([
            "OTEL_EXPORTER_OTLP_ENDPOINT": "https://collector:4317", "OTEL_EXPORTER_OTLP_PROTOCOL": "grpc",
            "OTEL_METRICS_EXPORTER": "otlp",
        ])
        #expect(generic.traces?.endpoint == "https://collector:4317")
        #expect(generic.metrics?.endpoint == "https://collector:4317")
        #expect(generic.traces?.encoding == .grpc)
        let byDefault = try Self.read(["OTEL_TRACES_EXPORTER": "otlp", "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL": "grpc"])
        #expect(byDefault.traces?.endpoint == "http://localhost:4317")
        // A signal's own endpoint is used as it is, over either protocol.
        let specific = try Self.read([
            "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://traces:4317", "OTEL_EXPORTER_OTLP_PROTOCOL": "grpc",
        ])
        #expect(specific.traces?.endpoint == "http://traces:4317")
    }

    @Test func overGRPCABareAddressIsTLSUnlessInsecureSaysOtherwise() throws {
        let secure = try Self.read([
            "OTEL_EXPORTER_OTLP_ENDPOINT": "collector:4317", "OTEL_EXPORTER_OTLP_PROTOCOL": "grpc",
        ])
        #expect(secure.traces?.endpoint == "https://collector:4317")
        let insecure = try Self.read([
            "OTEL_EXPORTER_OTLP_ENDPOINT": "collector:4317", "OTEL_EXPORTER_OTLP_PROTOCOL": "grpc",
            "OTEL_EXPORTER_OTLP_INSECURE": "true", "OTEL_METRICS_EXPORTER": "otlp",
            "OTEL_EXPORTER_OTLP_METRICS_INSECURE": "false",
        ])
        #expect(insecure.traces?.endpoint == "http://collector:4317")
        #expect(insecure.metrics?.endpoint == "https://collector:4317", "a signal's own setting replaces the generic")
        // A scheme decides; an INSECURE=true it overrules is warned about.
        let schemed = try Self.read([
            "OTEL_EXPORTER_OTLP_ENDPOINT": "https://collector:4317", "OTEL_EXPORTER_OTLP_PROTOCOL": "grpc",
            "OTEL_EXPORTER_OTLP_INSECURE": "true",
        ])
        #expect(schemed.traces?.endpoint == "https://collector:4317")
        #expect(schemed.warnings.contains { $0.hasPrefix("OTEL_EXPORTER_OTLP_INSECURE=true does not apply") })
        let unread = try Self.read([
            "OTEL_EXPORTER_OTLP_ENDPOINT": "collector:4317", "OTEL_EXPORTER_OTLP_PROTOCOL": "grpc",
            "OTEL_EXPORTER_OTLP_INSECURE": "yes",
        ])
        #expect(unread.traces?.endpoint == "https://collector:4317")
        #expect(unread.warnings == ["OTEL_EXPORTER_OTLP_INSECURE is neither true nor false: read as false"])
    }

    @Test func disablingIsOnlyTrue() throws {
        #expect(try Self.read(["OTEL_SDK_DISABLED": "TRUE"]).isDisabled)
        #expect(try !Self.read(["OTEL_SDK_DISABLED": "false"]).isDisabled)
    }

    @Test(arguments: [
        ["OTEL_EXPORTER_OTLP_ENDPOINT": "collector:4318"],
        ["OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "ftp://collector"],
        ["OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318", "OTEL_EXPORTER_OTLP_PROTOCOL": "http/thrift"],
        ["OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4317", "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL": "grpc/json"],
        ["OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:99999"],
    ])
    func anEndpointOrProtocolThatCannotWorkIsAnError(environment: [String: String]) {
        let error = #expect(throws: TelemetryError.self) { try Self.read(environment) }
        #expect(error?.code == .invalidConfiguration)
    }

    @Test func credentialsInAnEndpointNeverReachAMessage() {
        let error = #expect(throws: TelemetryError.self) {
            try Self.read(["OTEL_EXPORTER_OTLP_ENDPOINT": "http://user:hunter2@c:port"])
        }
        #expect(error?.message.contains("hunter2") == false)
        #expect(EndpointURL.redacted("https://user:pw@host:1/x") == "https://…@host:1/x")
    }
}
