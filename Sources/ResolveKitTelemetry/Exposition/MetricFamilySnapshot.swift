/// One family's values at one instant, as a scrape or an OTLP push sees them.
public struct MetricFamilySnapshot: Sendable {
    /// One label of a series.
    public struct Label: Sendable, Hashable {
        /// The Prometheus label name.
        public var name: String
        /// The OpenTelemetry attribute key.
        public var attributeKey: String
        /// The value; an empty value means the label is absent.
        public var value: String

        /// Creates a label.
        public init(name: String, attributeKey: String? = nil, value: String) {
            self.name = name
            self.attributeKey = attributeKey ?? name
            self.value = value
        }
    }

    /// One series' value.
    public enum Value: Sendable {
        /// A counter's total.
        case counter(Double)
        /// A gauge's value.
        case gauge(Double)
        /// A histogram's buckets, sum and count.
        case histogram(HistogramValue)
    }

    /// One series: its labels (constant labels first) and value.
    public struct Series: Sendable {
        /// The labels, in the family's order.
        public var labels: [Label]
        /// The value.
        public var value: Value

        /// Creates a series.
        public init(labels: [Label], value: Value) {
            self.labels = labels
            self.value = value
        }
    }

    /// The family's descriptor.
    public var descriptor: MetricDescriptor
    /// The kind of values.
    public var kind: MetricKind
    /// The series that have been recorded (a family without labels always has its one series).
    public var series: [Series]
    /// The names of the family's labels, constant ones first, whether or not a series was recorded.
    public var labelNames: [String]

    /// Creates a snapshot.
    public init(descriptor: MetricDescriptor, kind: MetricKind, series: [Series], labelNames: [String] = []) {
        self.descriptor = descriptor
        self.kind = kind
        self.series = series
        self.labelNames = labelNames
    }
}

/// A histogram series' state.
public struct HistogramValue: Sendable, Hashable {
    /// The buckets' upper bounds, increasing, without `+Inf`.
    public var bounds: [Double]
    /// The observations in each bucket, not cumulative: one more than `bounds`, the last for `+Inf`.
    public var bucketCounts: [UInt64]
    /// The sum of the observations.
    public var sum: Double
    /// How many observations there were.
    public var count: UInt64

    /// Creates a value.
    public init(bounds: [Double], bucketCounts: [UInt64], sum: Double, count: UInt64) {
        self.bounds = bounds
        self.bucketCounts = bucketCounts
        self.sum = sum
        self.count = count
    }

    /// The cumulative counts Prometheus' `_bucket` samples show, `+Inf` last (equal to ``count``).
    public var cumulativeCounts: [UInt64] {
        var total: UInt64 = 0
        return bucketCounts.map {
            total &+= $0
            return total
        }
    }
}

extension MetricFamilyStorage {
    /// The series recorded so far: for counters and histograms those with a count, for gauges those ever set; a
    /// family without labels always shows its one series.
    func snapshot() -> MetricFamilySnapshot {
        var series: [MetricFamilySnapshot.Series] = []
        let constants = descriptor.constantLabels.map {
            MetricFamilySnapshot.Label(name: $0.name, attributeKey: $0.attributeKey, value: $0.value)
        }
        for index in 0..<seriesCount {
            let value: MetricFamilySnapshot.Value
            switch kind {
            case .counter:
                let count = slots.load(index)
                guard count > 0 || labels.isEmpty else { continue }
                value = .counter(Double(count))
            case .gauge:
                guard slots.load(index * 2 + 1) != 0 || labels.isEmpty else { continue }
                value = .gauge(slots.loadDouble(index * 2))
            case .histogram:
                let histogram = histogramValue(series: index)
                guard histogram.count > 0 || labels.isEmpty else { continue }
                value = .histogram(histogram)
            }
            let slotsOfLabels = labelSlots(of: index)
            let dimensions = labels.indices.map { position in
                MetricFamilySnapshot.Label(
                    name: labels[position].name, attributeKey: labels[position].attributeKey,
                    value: labels[position].text(at: slotsOfLabels[position]))
            }
            series.append(MetricFamilySnapshot.Series(labels: constants + dimensions, value: value))
        }
        return MetricFamilySnapshot(
            descriptor: descriptor, kind: kind, series: series,
            labelNames: descriptor.constantLabels.map(\.name) + labels.map(\.name))
    }
}
