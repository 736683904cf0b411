/// A family's series index from its labels' slots, computed where the labels' types are known.
///
/// The families find a series from label values through their generic labels (`Counter<each Label>`), and Swift
/// does not specialize that fully: each recording looked up type metadata and called each label through its
/// witness table, which cost a call about a microsecond on a busy service, where caches are cold between calls.
/// The catalog's per-call methods compute the index here and record at it. The order is the families' own (the
/// first label's slot varies slowest); a catalog test reads every combination back from the exposition.
struct SeriesIndex {
    /// The index.
    private(set) var value = 0

    /// The index of a family without labels.
    static let unlabelled = SeriesIndex()

    /// The index after one more label, whose value is at `slot` among its `cardinality` slots.
    func then(_ slot: Int, of cardinality: Int) -> SeriesIndex {
        SeriesIndex(value: value * cardinality + slot)
    }

    /// The index after one more label, `label`, whose value is `value`.
    func then<Value>(_ value: Value, of label: EnumLabel<Value>) -> SeriesIndex {
        then(value.labelIndex, of: label.cardinality)
    }
}
