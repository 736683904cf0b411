/// A counter family with the labels `Label…`: a count per combination of label values that only grows.
///
/// ```swift
/// let calls = try registry.counter(
///     MetricDescriptor("myapp_jobs", help: "Jobs run, by result."), labels: EnumLabel("result", of: JobResult.self))
/// calls.increment(.success)
/// ```
public struct Counter<each Label: MetricLabel>: Sendable {
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

    /// Adds one to the series of `values`.
    public func increment(_ values: repeat (each Label).Value) {
        storage.increment(series: series(repeat each values), by: 1)
    }

    /// Adds `amount` to the series of `values`.
    public func add(_ amount: UInt64, _ values: repeat (each Label).Value) {
        storage.increment(series: series(repeat each values), by: amount)
    }

    /// Adds one to the series at `index`, which the caller computed from its labels' slots (``SeriesIndex``).
    func increment(series index: Int) {
        storage.increment(series: index, by: 1)
    }

    /// The count of the series of `values` (values outside a label's set read `other`'s).
    public func value(_ values: repeat (each Label).Value) -> UInt64 {
        storage.slots.load(series(repeat each values))
    }
}

/// A gauge family with the labels `Label…`: a value per combination of label values that goes up and down.
public struct Gauge<each Label: MetricLabel>: Sendable {
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

    /// Sets the series of `values` to `value`.
    public func set(_ value: Double, _ values: repeat (each Label).Value) {
        storage.set(series: series(repeat each values), to: value)
    }

    /// Adds `amount` (negative to subtract) to the series of `values`.
    public func add(_ amount: Double, _ values: repeat (each Label).Value) {
        storage.add(series: series(repeat each values), amount)
    }

    /// Adds one to the series of `values`.
    public func increment(_ values: repeat (each Label).Value) {
        storage.add(series: series(repeat each values), 1)
    }

    /// Subtracts one from the series of `values`.
    public func decrement(_ values: repeat (each Label).Value) {
        storage.add(series: series(repeat each values), -1)
    }

    /// Adds `amount` to the series at `index`, which the caller computed from its labels' slots (``SeriesIndex``).
    func add(_ amount: Double, series index: Int) {
        storage.add(series: index, amount)
    }

    /// The value of the series of `values`.
    public func value(_ values: repeat (each Label).Value) -> Double {
        storage.slots.loadDouble(series(repeat each values) * 2)
    }
}
