import Synchronization

/// Families whose values are read when a scrape or push asks, rather than recorded as they happen: the process
/// metrics, or a host's own readings.
public protocol MetricsCollector: Sendable {
    /// The families ``collect()`` returns, by name and kind, checked against the registry's rules and names when the
    /// collector is registered.
    var declaredFamilies: [(name: String, kind: MetricKind)] { get }
    /// The families' current values.
    func collect() -> [MetricFamilySnapshot]
}

/// The metrics of one runtime or host: typed counters, gauges and histograms whose series are fixed when they are
/// registered, and collectors read at scrape time, rendered in Prometheus' text format or OpenMetrics.
///
/// Registration checks Prometheus' naming rules and refuses a name whose samples would clash with another family's.
/// Recording takes no lock and allocates nothing: every series' slots exist from registration on.
///
/// ```swift
/// let registry = MetricsRegistry()
/// let jobs = try registry.counter(MetricDescriptor("myapp_jobs", help: "Jobs run."))
/// jobs.increment()
/// let text = registry.exposition(.prometheusText)
/// ```
public final class MetricsRegistry: Sendable {
    private struct State {
        var families: [MetricFamilyStorage] = []
        var collectors: [any MetricsCollector] = []
        /// Every family and sample name taken, e.g. `x`, `x_total`, `x_created` for a counter `x`.
        var names: Set<String> = []
    }

    /// The most series one family may have: the product of its labels' cardinalities.
    public static let maxSeriesPerFamily = 10_000

    private let state = Mutex(State())

    /// Creates an empty registry.
    public init() {}

    /// Registers a counter family.
    /// - Parameters:
    ///   - descriptor: The name (without `_total`), help, unit and constant labels.
    ///   - labels: The family's labels, each with its fixed values.
    /// - Throws: ``TelemetryError`` when a name breaks the rules or is taken, or the family has too many series.
    public func counter<each Label: MetricLabel>(
        _ descriptor: MetricDescriptor, labels: repeat each Label
    ) throws(TelemetryError) -> Counter<repeat each Label> {
        var shapes: [LabelShape] = []
        for label in repeat each labels { shapes.append(LabelShape(label)) }
        let storage = try register(descriptor, kind: .counter, labels: shapes, bounds: [])
        return Counter(storage: storage, labels: (repeat each labels))
    }

    /// Registers a gauge family.
    /// - Throws: ``TelemetryError`` when a name breaks the rules or is taken, or the family has too many series.
    public func gauge<each Label: MetricLabel>(
        _ descriptor: MetricDescriptor, labels: repeat each Label
    ) throws(TelemetryError) -> Gauge<repeat each Label> {
        var shapes: [LabelShape] = []
        for label in repeat each labels { shapes.append(LabelShape(label)) }
        let storage = try register(descriptor, kind: .gauge, labels: shapes, bounds: [])
        return Gauge(storage: storage, labels: (repeat each labels))
    }

    /// Registers a histogram family with explicit buckets.
    /// - Parameters:
    ///   - buckets: The upper bounds, strictly increasing and finite; `+Inf` is added.
    /// - Throws: ``TelemetryError`` when a name breaks the rules or is taken (`le` is reserved), the buckets are
    ///   not increasing and finite, or the family has too many series.
    public func histogram<each Label: MetricLabel>(
        _ descriptor: MetricDescriptor, buckets: [Double], labels: repeat each Label
    ) throws(TelemetryError) -> Histogram<repeat each Label> {
        try MetricRules.checkBuckets(buckets, family: descriptor.name)
        var shapes: [LabelShape] = []
        for label in repeat each labels { shapes.append(LabelShape(label)) }
        let storage = try register(descriptor, kind: .histogram, labels: shapes, bounds: buckets)
        return Histogram(storage: storage, labels: (repeat each labels))
    }

    /// Registers a collector, read at every scrape and push.
    /// - Throws: ``TelemetryError`` when one of its families' names breaks the rules or is taken.
    public func register(_ collector: some MetricsCollector) throws(TelemetryError) {
        try state.withLock { state throws(TelemetryError) in
            var taken = state.names
            for family in collector.declaredFamilies {
                try MetricRules.checkMetricName(family.name)
                try MetricRules.claim(family.name, kind: family.kind, in: &taken)
            }
            state.names = taken
            state.collectors.append(collector)
        }
    }

    /// Every family's current values, in registration order, the collectors' last.
    public func snapshot() -> [MetricFamilySnapshot] {
        let (families, collectors) = state.withLock { ($0.families, $0.collectors) }
        return families.map { $0.snapshot() } + collectors.flatMap { $0.collect() }
    }

    /// The registry rendered in `format`, for a host that serves `/metrics` with its own HTTP server.
    public func exposition(_ format: ExpositionFormat = .prometheusText) -> [UInt8] {
        TextExposition.render(snapshot(), format: format)
    }

    /// The registry rendered in the format a scraper's `Accept` header prefers, with its `Content-Type`.
    public func exposition(accept: String?) -> (contentType: String, body: [UInt8]) {
        let format = ExpositionFormat.negotiate(accept: accept)
        return (format.contentType, exposition(format))
    }

    private func register(
        _ descriptor: MetricDescriptor, kind: MetricKind, labels: [LabelShape], bounds: [Double]
    ) throws(TelemetryError) -> MetricFamilyStorage {
        try MetricRules.checkMetricName(descriptor.name)
        try MetricRules.checkLabels(descriptor: descriptor, kind: kind, labels: labels)
        let series = labels.reduce(1) { $0.multipliedReportingOverflow(by: $1.cardinality).partialValue }
        guard series <= Self.maxSeriesPerFamily else {
            throw TelemetryError(
                .invalidLabel,
                "\(descriptor.name) would have \(series) series, more than \(Self.maxSeriesPerFamily): "
                    + "use fewer labels or smaller value sets")
        }
        return try state.withLock { state throws(TelemetryError) in
            var taken = state.names
            try MetricRules.claim(descriptor.name, kind: kind, in: &taken)
            let storage = MetricFamilyStorage(descriptor: descriptor, kind: kind, labels: labels, bounds: bounds)
            state.names = taken
            state.families.append(storage)
            return storage
        }
    }
}
