/// What kind of values a metric family holds.
public enum MetricKind: String, Sendable, Hashable {
    /// A count that only grows (a process restart resets it).
    case counter
    /// A value that goes up and down.
    case gauge
    /// Observations counted into explicit buckets, with their sum and count.
    case histogram
}

/// One label of a registered family, without its Swift type.
struct LabelShape: Sendable {
    let name: String
    let attributeKey: String
    let values: [String]
    let hasOther: Bool

    init(_ label: some MetricLabel) {
        name = label.name
        attributeKey = label.attributeKey
        values = label.values
        hasOther = label.hasOther
    }

    var cardinality: Int { values.count + (hasOther ? 1 : 0) }
    func text(at slot: Int) -> String { slot < values.count ? values[slot] : MetricLabels.other }
}

/// The registered state of one family, whatever its label types: shared by its typed handle and the registry.
///
/// Series are numbered in mixed radix, the first label most significant; each series owns `stride` consecutive
/// slots: a counter its count; a gauge its value's bits and a flag saying it was ever set; a histogram one count per
/// bucket (`+Inf` last) and the bits of its sum.
final class MetricFamilyStorage: Sendable {
    let descriptor: MetricDescriptor
    let kind: MetricKind
    let labels: [LabelShape]
    /// Upper bounds of a histogram's buckets, increasing, without `+Inf`.
    let bounds: [Double]
    let seriesCount: Int
    let stride: Int
    let slots: MetricSlots

    init(descriptor: MetricDescriptor, kind: MetricKind, labels: [LabelShape], bounds: [Double]) {
        self.descriptor = descriptor
        self.kind = kind
        self.labels = labels
        self.bounds = bounds
        seriesCount = labels.reduce(1) { $0 * $1.cardinality }
        stride =
            switch kind {
            case .counter: 1
            case .gauge: 2
            case .histogram: bounds.count + 2
            }
        slots = MetricSlots(count: seriesCount * stride)
    }

    /// Adds to a counter series.
    func increment(series: Int, by amount: UInt64) {
        slots.add(amount, at: series)
    }

    /// Sets a gauge series.
    func set(series: Int, to value: Double) {
        let base = series * 2
        slots.store(value, at: base)
        if slots.load(base + 1) == 0 { slots.exchange(1, at: base + 1) }
    }

    /// Adds to a gauge series.
    func add(series: Int, _ amount: Double) {
        let base = series * 2
        slots.addDouble(amount, at: base)
        if slots.load(base + 1) == 0 { slots.exchange(1, at: base + 1) }
    }

    /// Counts an observation into a histogram series; NaN is not counted (it has no bucket and would poison the sum).
    func observe(series: Int, _ value: Double) {
        guard !value.isNaN else { return }
        var bucket = 0
        while bucket < bounds.count, value > bounds[bucket] { bucket += 1 }
        let base = series * stride
        slots.add(1, at: base + bucket)
        slots.addDouble(value, at: base + bounds.count + 1)
    }

    /// The label slots of series `index`.
    func labelSlots(of index: Int) -> [Int] {
        var rest = index
        var result = [Int](repeating: 0, count: labels.count)
        for position in labels.indices.reversed() {
            result[position] = rest % labels[position].cardinality
            rest /= labels[position].cardinality
        }
        return result
    }
}
