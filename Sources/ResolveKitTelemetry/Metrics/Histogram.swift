/// A histogram family with the labels `Label…`: observations counted into explicit buckets (an observation equal
/// to a bound falls in that bound's bucket, as Prometheus' `le` says), with their sum and count.
public struct Histogram<each Label: MetricLabel>: Sendable {
    let storage: MetricFamilyStorage
    let labels: (repeat each Label)

    init(storage: MetricFamilyStorage, labels: (repeat each Label)) {
        self.storage = storage
        self.labels = labels
    }

    private func series(_ values: repeat (each Label).Value) -> Int {
        var index = 0
        for (label, value) in repeat (each labels, each values) {
            index = index * label.cardinality + label.slot(of: value)
        }
        return index
    }

    /// The buckets' upper bounds, increasing; `+Inf` is implied.
    public var buckets: [Double] { storage.bounds }

    /// Counts `value` into the series of `values`. NaN is ignored.
    public func observe(_ value: Double, _ values: repeat (each Label).Value) {
        storage.observe(series: series(repeat each values), value)
    }

    /// Counts `duration`, in seconds, into the series of `values`.
    public func observe(_ duration: Duration, _ values: repeat (each Label).Value) {
        storage.observe(series: series(repeat each values), duration.seconds)
    }

    /// Counts `duration`, in seconds, into the series at `index`, which the caller computed from its labels' slots
    /// (``SeriesIndex``).
    func observe(_ duration: Duration, series index: Int) {
        storage.observe(series: index, duration.seconds)
    }

    /// The series of `values` as a scrape would see it.
    public func value(_ values: repeat (each Label).Value) -> HistogramValue {
        storage.histogramValue(series: series(repeat each values))
    }
}

extension Duration {
    /// The duration in seconds, as a `Double`.
    var seconds: Double {
        let parts = components
        return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }
}

extension MetricFamilyStorage {
    /// A histogram series' buckets (not cumulative), sum and count, read slot by slot: the count is the buckets'
    /// total, so buckets and count always agree; the sum may miss an observation recorded meanwhile.
    func histogramValue(series: Int) -> HistogramValue {
        let base = series * stride
        let counts = (0...bounds.count).map { slots.load(base + $0) }
        return HistogramValue(
            bounds: bounds, bucketCounts: counts, sum: slots.loadDouble(base + bounds.count + 1),
            count: counts.reduce(0, &+))
    }
}
