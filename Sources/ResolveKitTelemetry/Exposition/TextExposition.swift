/// Renders metric snapshots in Prometheus' text format 0.0.4 or OpenMetrics 1.0 text.
///
/// Both have `# HELP` and `# TYPE` lines per family, a counter's samples named `_total`, a histogram's cumulative
/// `_bucket` samples (with `le="+Inf"` equal to `_count`), `_sum` and `_count`. Label values escape `\`, `"` and
/// newlines; labels with an empty value are left out.
public enum TextExposition {
    /// The snapshots as text in `format`.
    public static func render(_ families: [MetricFamilySnapshot], format: ExpositionFormat) -> [UInt8] {
        var writer = ExpositionWriter()
        for family in families {
            writer.family(family, format: format)
        }
        if format == .openMetrics { writer.append("# EOF\n") }
        return writer.bytes
    }
}

struct ExpositionWriter {
    var bytes: [UInt8] = []

    init() {
        bytes.reserveCapacity(16 * 1024)
    }

    mutating func append(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    mutating func family(_ family: MetricFamilySnapshot, format: ExpositionFormat) {
        let base = family.descriptor.name
        let headerName = family.kind == .counter && format == .prometheusText ? base + "_total" : base
        let help = Self.escapedHelp(family.descriptor.help, quotes: format == .openMetrics)
        if format == .openMetrics {
            append("# TYPE \(headerName) \(family.kind.rawValue)\n")
            if let unit = family.descriptor.prometheusUnit { append("# UNIT \(headerName) \(unit)\n") }
            append("# HELP \(headerName) \(help)\n")
        } else {
            append("# HELP \(headerName) \(help)\n# TYPE \(headerName) \(family.kind.rawValue)\n")
        }
        for series in family.series {
            switch series.value {
            case .counter(let value):
                sample(base + "_total", series.labels, value: Self.number(value))
            case .gauge(let value):
                sample(base, series.labels, value: Self.number(value))
            case .histogram(let histogram):
                let cumulative = histogram.cumulativeCounts
                for (index, count) in cumulative.enumerated() {
                    let bound =
                        index < histogram.bounds.count ? Self.bound(histogram.bounds[index], format: format) : "+Inf"
                    let le = MetricFamilySnapshot.Label(name: "le", value: bound)
                    sample(base + "_bucket", series.labels + [le], value: String(count))
                }
                sample(base + "_sum", series.labels, value: Self.number(histogram.sum))
                sample(base + "_count", series.labels, value: String(histogram.count))
            }
        }
    }

    private mutating func sample(_ name: String, _ labels: [MetricFamilySnapshot.Label], value: String) {
        append(name)
        var first = true
        for label in labels where !label.value.isEmpty {
            append(first ? "{" : ",")
            first = false
            append(label.name)
            append("=\"")
            appendEscapedLabelValue(label.value)
            append("\"")
        }
        if !first { append("}") }
        append(" ")
        append(value)
        append("\n")
    }

    private mutating func appendEscapedLabelValue(_ value: String) {
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\\"): append("\\\\")
            case UInt8(ascii: "\""): append("\\\"")
            case UInt8(ascii: "\n"): append("\\n")
            default: bytes.append(byte)
            }
        }
    }

    /// HELP text with `\` and newlines escaped (and `"` too in OpenMetrics).
    static func escapedHelp(_ help: String, quotes: Bool) -> String {
        var result = ""
        for character in help.unicodeScalars {
            switch character {
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\"" where quotes: result += "\\\""
            default: result.unicodeScalars.append(character)
            }
        }
        return result
    }

    /// A sample value: integers without a fraction, `+Inf`, `-Inf`, `NaN`, other numbers in their shortest form.
    static func number(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value > 0 ? "+Inf" : "-Inf" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }

    /// A bucket bound: in OpenMetrics its canonical form (`1.0`, `0.25`), in the text format as Go writes it (`1`).
    static func bound(_ value: Double, format: ExpositionFormat) -> String {
        guard format == .openMetrics, value == value.rounded(), abs(value) < 1e15 else { return number(value) }
        return String(Int64(value)) + ".0"
    }
}
