/// What a metric family is: its name, help text, unit and fixed labels, as registered.
public struct MetricDescriptor: Sendable {
    /// A label with one value on every series of the family, such as a provider name.
    public struct ConstantLabel: Sendable, Hashable {
        /// The Prometheus label name.
        public var name: String
        /// The value.
        public var value: String
        /// The OpenTelemetry attribute key; the name by default.
        public var attributeKey: String

        /// Creates a constant label.
        public init(_ name: String, _ value: String, attributeKey: String? = nil) {
            self.name = name
            self.value = value
            self.attributeKey = attributeKey ?? name
        }
    }

    /// The Prometheus family name, e.g. `resolvekit_tool_calls` (a counter's samples add `_total`).
    public var name: String
    /// One line saying what is measured.
    public var help: String
    /// The UCUM unit OTLP carries (`s`, `By`, `{call}`); `s` and `By` also give OpenMetrics' `# UNIT` line when
    /// the name ends in `_seconds` or `_bytes`.
    public var unit: String
    /// The OpenTelemetry instrument name used in OTLP, e.g. `gen_ai.client.token.usage`; the name by default.
    public var otelName: String
    /// Labels with the same value on every series.
    public var constantLabels: [ConstantLabel]

    /// Creates a descriptor.
    public init(
        _ name: String, help: String, unit: String = "", otelName: String? = nil, constantLabels: [ConstantLabel] = []
    ) {
        self.name = name
        self.help = help
        self.unit = unit
        self.otelName = otelName ?? name
        self.constantLabels = constantLabels
    }

    /// The unit as OpenMetrics names it (`seconds`, `bytes`), when the name ends with it; `nil` otherwise.
    var prometheusUnit: String? {
        let unit: String? =
            switch self.unit {
            case "s": "seconds"
            case "By": "bytes"
            default: nil
            }
        guard let unit, name.hasSuffix("_" + unit) else { return nil }
        return unit
    }
}
