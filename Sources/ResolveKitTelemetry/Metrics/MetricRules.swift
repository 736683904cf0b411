/// Prometheus' naming rules, checked when a family is registered.
enum MetricRules {
    /// Suffixes a family name may not end in: its own samples (or another family's) use them.
    static let reservedSuffixes = ["_total", "_created", "_bucket", "_count", "_sum", "_gcount", "_gsum", "_info"]

    /// `[a-zA-Z_][a-zA-Z0-9_]*` (colons are for recording rules), no reserved suffix.
    static func checkMetricName(_ name: String) throws(TelemetryError) {
        guard isIdentifier(name) else {
            throw TelemetryError(
                .invalidMetricName, "\"\(name)\" is not a metric name: use letters, digits and _, not first a digit")
        }
        if let suffix = reservedSuffixes.first(where: { name.hasSuffix($0) }) {
            throw TelemetryError(
                .invalidMetricName,
                "\(name) ends in \(suffix), which the exposition adds to samples: register it without the suffix")
        }
    }

    /// Label names are identifiers, not `__…`, not `le` on a histogram, not repeated; label values are distinct and
    /// a set label has neither `other` nor an empty value among them.
    static func checkLabels(
        descriptor: MetricDescriptor, kind: MetricKind, labels: [LabelShape]
    ) throws(TelemetryError) {
        var seen: Set<String> = []
        let names = descriptor.constantLabels.map(\.name) + labels.map(\.name)
        for name in names {
            guard isIdentifier(name), !name.hasPrefix("__") else {
                throw TelemetryError(
                    .invalidLabel, "\(descriptor.name): \"\(name)\" is not a label name (identifier, not __ first)")
            }
            guard !(kind == .histogram && name == "le") else {
                throw TelemetryError(.invalidLabel, "\(descriptor.name): le is reserved for histogram buckets")
            }
            guard seen.insert(name).inserted else {
                throw TelemetryError(.invalidLabel, "\(descriptor.name): the label \(name) appears twice")
            }
        }
        for label in labels {
            guard Set(label.values).count == label.values.count else {
                throw TelemetryError(.invalidLabel, "\(descriptor.name): \(label.name) has a value twice")
            }
            guard label.hasOther else { continue }
            guard !label.values.contains(MetricLabels.other), !label.values.contains("") else {
                throw TelemetryError(
                    .invalidLabel,
                    "\(descriptor.name): \(label.name)'s values may not be empty or \"other\", which stands for "
                        + "anything outside the set")
            }
        }
    }

    /// Buckets are non-empty, finite and strictly increasing.
    static func checkBuckets(_ buckets: [Double], family: String) throws(TelemetryError) {
        guard !buckets.isEmpty, buckets.allSatisfy(\.isFinite),
            zip(buckets, buckets.dropFirst()).allSatisfy({ $0 < $1 })
        else {
            throw TelemetryError(
                .invalidBuckets, "\(family): buckets must be finite and strictly increasing (+Inf is added)")
        }
    }

    /// Takes the family's name and its samples' names in `taken`.
    /// - Throws: ``TelemetryError/Code/duplicateMetric`` when one is taken already.
    static func claim(_ name: String, kind: MetricKind, in taken: inout Set<String>) throws(TelemetryError) {
        let samples: [String] =
            switch kind {
            case .counter: [name, name + "_total", name + "_created"]
            case .gauge: [name]
            case .histogram: [name, name + "_bucket", name + "_count", name + "_sum", name + "_created"]
            }
        if let clash = samples.first(where: { taken.contains($0) }) {
            throw TelemetryError(.duplicateMetric, "\(name): the name \(clash) is already registered")
        }
        taken.formUnion(samples)
    }

    static func isIdentifier(_ name: String) -> Bool {
        guard let first = name.utf8.first, !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else {
            return false
        }
        return name.utf8.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "_")
        }
    }
}
