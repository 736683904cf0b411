import ResolveKitTelemetry

/// Every family of a runtime's registry: the catalog, the process metrics and the span processor's counters.
enum CatalogNames {
    static func registry() throws -> MetricsRegistry {
        try catalog().registry
    }

    /// The catalog over a registry that also holds the process metrics and the span processor's counters.
    static func catalog() throws -> ResolveKitMetrics {
        let registry = MetricsRegistry()
        let metrics = try ResolveKitMetrics(registry: registry, functionNames: ["get_weather"])
        try registry.register(ProcessMetrics())
        _ = try BatchSpanProcessor(
            exporter: OTLPSpanExporter(
                endpoint: "http://127.0.0.1:9/v1/traces", resource: TelemetryResource(serviceName: "x"),
                transport: PlainHTTPTransport()),
            metrics: registry)
        return metrics
    }

    /// The families, as the README's table lists them: the sample name, the type and the help text.
    static func families() throws -> [MetricFamilySnapshot] {
        try registry().snapshot()
    }

    /// Every name a query may use: counters' `_total`, histograms' `_bucket`, `_sum`, `_count`, gauges' own.
    static func sampleNames() throws -> Set<String> {
        var names: Set<String> = []
        for family in try families() {
            let name = family.descriptor.name
            switch family.kind {
            case .counter: names.insert(name + "_total")
            case .gauge: names.insert(name)
            case .histogram: names.formUnion([name + "_bucket", name + "_sum", name + "_count"])
            }
        }
        return names
    }

    /// The catalog's metric names a text mentions (words starting with one of the catalog's prefixes).
    static func mentioned(in text: String) -> Set<String> {
        var found: Set<String> = []
        var word = ""
        for character in text + " " {
            if character.isLetter || character.isNumber || character == "_" {
                word.append(character)
                continue
            }
            if ["resolvekit_", "gen_ai_client_", "mcp_server_", "process_"].contains(where: { word.hasPrefix($0) }) {
                found.insert(word)
            }
            word = ""
        }
        return found
    }
}
