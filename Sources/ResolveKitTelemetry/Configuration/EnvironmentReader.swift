/// Reads `OTEL_*` variables as OpenTelemetry's environment specification says, collecting a warning for every value
/// it has to ignore.
struct EnvironmentReader {
    private let environment: [String: String]
    private(set) var warnings: [String] = []

    init(_ environment: [String: String]) {
        self.environment = environment
    }

    mutating func warn(_ message: String) {
        warnings.append(message)
    }

    /// The value, trimmed, when set and not empty.
    func nonEmpty(_ name: String) -> String? {
        guard let value = environment[name]?.trimmingCharacters(in: " \t"), !value.isEmpty else { return nil }
        return value
    }

    /// A boolean: only `true` (any case) is true; anything but `false` is warned about.
    mutating func flag(_ name: String) -> Bool {
        guard let value = nonEmpty(name)?.lowercased() else { return false }
        if value == "true" { return true }
        if value != "false" { warn("\(name) is neither true nor false: read as false") }
        return false
    }

    /// A non-negative integer, or `fallback` with a warning.
    mutating func integer(_ name: String, default fallback: Int) -> Int {
        guard let value = nonEmpty(name) else { return fallback }
        guard let number = Int(value), number >= 0 else {
            warn("\(name) is not a non-negative integer: using \(fallback)")
            return fallback
        }
        return number
    }

    /// A positive number of milliseconds, or `fallback` with a warning.
    mutating func milliseconds(_ name: String, default fallback: Int) -> Duration {
        let value = integer(name, default: fallback)
        guard value > 0 else {
            warn("\(name) must be a positive number of milliseconds: using \(fallback)")
            return .milliseconds(fallback)
        }
        return .milliseconds(value)
    }

    /// A `key=value,key=value` list (W3C Baggage form, without properties), keys and values percent-decoded and
    /// trimmed. A malformed entry is skipped with a warning naming the variable, not the value (it may be secret).
    mutating func keyValueList(_ name: String) -> [(String, String)] {
        guard let text = nonEmpty(name) else { return [] }
        var result: [(String, String)] = []
        for (index, entry) in text.split(separator: ",", omittingEmptySubsequences: true).enumerated() {
            let pair = entry.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard pair.count == 2, let key = Self.percentDecoded(pair[0].trimmingCharacters(in: " \t")),
                let value = Self.percentDecoded(pair[1].trimmingCharacters(in: " \t")), !key.isEmpty
            else {
                warn("\(name): entry \(index + 1) is not key=value (percent-encode , = and %): skipped")
                continue
            }
            result.append((key, value))
        }
        return result
    }

    /// The sampler of `OTEL_TRACES_SAMPLER` and `OTEL_TRACES_SAMPLER_ARG`.
    mutating func sampler() -> Sampler {
        let name = nonEmpty("OTEL_TRACES_SAMPLER")?.lowercased() ?? "parentbased_always_on"
        func ratio() -> Double {
            guard let text = nonEmpty("OTEL_TRACES_SAMPLER_ARG") else { return 1 }
            guard let value = Double(text), (0...1).contains(value) else {
                warnings.append("OTEL_TRACES_SAMPLER_ARG is not a ratio from 0 to 1: using 1.0")
                return 1
            }
            return value
        }
        switch name {
        case "always_on": return .alwaysOn
        case "always_off": return .alwaysOff
        case "traceidratio": return .traceIDRatio(ratio())
        case "parentbased_always_on": return .parentBased(root: .alwaysOn)
        case "parentbased_always_off": return .parentBased(root: .alwaysOff)
        case "parentbased_traceidratio": return .parentBased(root: .traceIDRatio(ratio()))
        default:
            warn("OTEL_TRACES_SAMPLER=\(name) is not supported: using parentbased_always_on")
            return .parentBased(root: .alwaysOn)
        }
    }

    /// Where `signal` (`TRACES`, `METRICS`) is exported, or `nil`.
    /// - Parameters:
    ///   - path: Appended to `OTEL_EXPORTER_OTLP_ENDPOINT` over HTTP, e.g. `v1/traces`.
    ///   - genericEndpointExports: Whether `OTEL_EXPORTER_OTLP_ENDPOINT` alone turns the export on.
    ///   - cap: The longest request timeout (`OTEL_BSP_EXPORT_TIMEOUT`, `OTEL_METRIC_EXPORT_TIMEOUT`).
    mutating func export(
        signal: String, path: String, genericEndpointExports: Bool, cap: Duration
    ) throws(TelemetryError) -> TelemetryConfiguration.Export? {
        let exporterVariable = "OTEL_\(signal)_EXPORTER"
        var explicit = false
        if let exporters = nonEmpty(exporterVariable)?.lowercased() {
            let names = exporters.split(separator: ",").map { $0.trimmingCharacters(in: " \t") }
            if names.contains("otlp") {
                explicit = true
            } else {
                if names != ["none"], !(signal == "METRICS" && names == ["prometheus"]) {
                    warn("\(exporterVariable)=\(exporters) is not supported (otlp or none): not exported")
                }
                return nil
            }
        }
        let encoding = try choice(
            "PROTOCOL", signal: signal, default: OTLPEncoding.protobuf,
            otherwise: "the protocols are http/protobuf (the default), http/json and grpc")
        // Over gRPC an endpoint is the collector's address: the method's path goes after it, not `v1/traces`.
        let configured: String
        if let specific = nonEmpty("OTEL_EXPORTER_OTLP_\(signal)_ENDPOINT") {
            configured = specific
        } else if let generic = nonEmpty("OTEL_EXPORTER_OTLP_ENDPOINT"), genericEndpointExports || explicit {
            configured = encoding == .grpc ? generic : generic.hasSuffix("/") ? generic + path : generic + "/" + path
        } else if explicit {
            configured = encoding == .grpc ? "http://localhost:4317" : "http://localhost:4318/" + path
        } else {
            return nil
        }
        let specificVariable = "OTEL_EXPORTER_OTLP_\(signal)_ENDPOINT"
        let endpoint = transportSecurity(configured, signal: signal, isGRPC: encoding == .grpc)
        do {
            _ = try EndpointURL(parsing: endpoint)
        } catch {
            throw TelemetryError(
                .invalidConfiguration, "\(specificVariable) or OTEL_EXPORTER_OTLP_ENDPOINT: \(error.message)")
        }
        let compression = try choice(
            "COMPRESSION", signal: signal, default: OTLPCompression.none,
            otherwise: "the compressions are none (the default) and gzip")
        let headersVariable = settingVariable("HEADERS", signal: signal)
        let headers = keyValueList(headersVariable).filter { name, value in
            let isToken = !name.isEmpty && name.utf8.allSatisfy { $0 > 32 && $0 < 127 && $0 != UInt8(ascii: ":") }
            let isValue = !value.utf8.contains { $0 == 13 || $0 == 10 || $0 == 0 }
            if !isToken || !isValue {
                warnings.append("\(headersVariable): a header name or value is not valid HTTP: skipped")
            }
            return isToken && isValue
        }
        let timeoutVariable = settingVariable("TIMEOUT", signal: signal)
        let timeout = min(milliseconds(timeoutVariable, default: 10_000), cap)
        return TelemetryConfiguration.Export(
            endpoint: endpoint, encoding: encoding, compression: compression, headers: headers.map { ($0.0, $0.1) },
            timeout: timeout)
    }

    /// `endpoint` with the scheme that says whether its connection is encrypted. Over gRPC an endpoint may be a bare
    /// `host:port`, as gRPC clients write it: TLS unless `OTEL_EXPORTER_OTLP_INSECURE` (or the signal's own) is
    /// `true`. A scheme, when there is one, decides, as the specification says; an `INSECURE=true` it overrides is
    /// warned about.
    private mutating func transportSecurity(_ endpoint: String, signal: String, isGRPC: Bool) -> String {
        let variable = settingVariable("INSECURE", signal: signal)
        let insecure = flag(variable)
        if endpoint.contains("://") {
            if insecure, endpoint.lowercased().hasPrefix("https://") {
                warn("\(variable)=true does not apply: the endpoint's https:// scheme asks for TLS")
            }
            return endpoint
        }
        guard isGRPC else { return endpoint }
        return (insecure ? "http://" : "https://") + endpoint
    }

    /// The value the variable of `setting` for `signal` names (any case), or `fallback` when it is unset.
    /// - Throws: ``TelemetryError/Code/invalidConfiguration`` naming the variable, its value and `explanation` when
    ///   the value is none of `Value`'s.
    private func choice<Value: RawRepresentable<String>>(
        _ setting: String, signal: String, default fallback: Value, otherwise explanation: String
    ) throws(TelemetryError) -> Value {
        let variable = settingVariable(setting, signal: signal)
        guard let text = nonEmpty(variable) else { return fallback }
        guard let value = Value(rawValue: text.lowercased()) else {
            throw TelemetryError(.invalidConfiguration, "\(variable)=\(text): \(explanation)")
        }
        return value
    }

    /// The variable that sets `setting` for `signal`: the signal's own (`OTEL_EXPORTER_OTLP_TRACES_TIMEOUT`) when it
    /// is set, which replaces the generic one (`OTEL_EXPORTER_OTLP_TIMEOUT`), as the specification says.
    private func settingVariable(_ setting: String, signal: String) -> String {
        let specific = "OTEL_EXPORTER_OTLP_\(signal)_\(setting)"
        return nonEmpty(specific) != nil ? specific : "OTEL_EXPORTER_OTLP_\(setting)"
    }

    /// `text` with `%XX` escapes decoded; `nil` for a broken escape or bytes that are not UTF-8.
    static func percentDecoded(_ text: String) -> String? {
        var bytes: [UInt8] = []
        var iterator = Array(text.utf8).makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next(), let low = iterator.next(),
                let value = UInt8(String(decoding: [high, low], as: UTF8.self), radix: 16)
            else { return nil }
            bytes.append(value)
        }
        return String(validating: bytes, as: UTF8.self)
    }
}
