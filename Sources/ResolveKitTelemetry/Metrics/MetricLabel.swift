/// One label of a metric family: its name and the fixed set of values it may take.
///
/// A family allocates one series per combination of its labels' values when it is registered; recording a value
/// only finds its slot. A value outside the set is recorded under `other`, so no argument, user key or error
/// message can ever create a series. Use ``EnumLabel`` for a fixed enumeration and ``SetLabel`` for a set known at
/// start, such as the registered function names.
public protocol MetricLabel: Sendable {
    /// What is passed when recording: an enum case, or a string looked up in the set.
    associatedtype Value
    /// The Prometheus label name, e.g. `outcome`.
    var name: String { get }
    /// The OpenTelemetry attribute key the label becomes in OTLP, e.g. `gen_ai.token.type`.
    var attributeKey: String { get }
    /// The values, in slot order; a slot past them, when ``hasOther``, is `other`.
    var values: [String] { get }
    /// Whether a value outside ``values`` can be recorded (and goes to `other`).
    var hasOther: Bool { get }
    /// How many slots the label takes: its values, and `other` when it has one. Read on every recording, so the
    /// labels here keep it rather than count their values each time.
    var cardinality: Int { get }
    /// The slot of `value`: its position in ``values``, or `values.count` for `other`.
    func slot(of value: Value) -> Int
}

extension MetricLabel {
    /// How many slots the label takes: its values, and `other` when it has one.
    public var cardinality: Int { values.count + (hasOther ? 1 : 0) }

    /// The label's text at `slot`.
    func text(at slot: Int) -> String { slot < values.count ? values[slot] : MetricLabels.other }
}

/// Constants shared by every label.
public enum MetricLabels {
    /// The value recorded for anything outside a label's set.
    public static let other = "other"
}

/// A type whose cases are the values of a label, such as a call's outcome.
///
/// ```swift
/// enum Outcome: String, MetricLabelValue {
///     case success, error
///     var labelIndex: Int { self == .success ? 0 : 1 }
/// }
/// ```
public protocol MetricLabelValue: CaseIterable, Sendable {
    /// The value's text in the label, e.g. `success`; an empty text leaves the label out of the series.
    var labelValue: String { get }
    /// The case's position in `allCases` (a `switch`, so recording allocates nothing).
    var labelIndex: Int { get }
}

extension MetricLabelValue where Self: RawRepresentable, RawValue == String {
    /// The raw value.
    public var labelValue: String { rawValue }
}

/// A label's texts, behind one reference: a family copies its labels on every recording, and a copy is then one
/// retain, not one per string and array.
final class LabelTexts: Sendable {
    let name: String
    let attributeKey: String
    let values: [String]
    /// Each value's slot, for labels recorded by text.
    let slots: [String: Int]

    init(name: String, attributeKey: String?, values: [String], slots: [String: Int] = [:]) {
        self.name = name
        self.attributeKey = attributeKey ?? name
        self.values = values
        self.slots = slots
    }
}

/// A label whose values are the cases of an enumeration: it has no `other`.
public struct EnumLabel<Value: MetricLabelValue>: MetricLabel {
    private let texts: LabelTexts
    /// The Prometheus label name.
    public var name: String { texts.name }
    /// The OpenTelemetry attribute key.
    public var attributeKey: String { texts.attributeKey }
    /// Every case's text, in `allCases` order.
    public var values: [String] { texts.values }
    /// Always `false`: every case has a slot.
    public var hasOther: Bool { false }
    /// The number of cases.
    public let cardinality: Int

    /// Creates a label named `name` over `Value`'s cases.
    /// - Parameters:
    ///   - name: The Prometheus label name.
    ///   - attributeKey: The OpenTelemetry attribute key; the name by default.
    ///   - type: The enumeration.
    public init(_ name: String, attributeKey: String? = nil, of type: Value.Type = Value.self) {
        texts = LabelTexts(name: name, attributeKey: attributeKey, values: Value.allCases.map(\.labelValue))
        cardinality = texts.values.count
    }

    /// The case's position.
    public func slot(of value: Value) -> Int { value.labelIndex }
}

/// A label whose values are a set of strings fixed when the family is registered, such as the function names of a
/// registry; any other string is recorded as `other`.
public struct SetLabel: MetricLabel {
    /// Shared with ``ResolvedSetLabel``.
    fileprivate let texts: LabelTexts
    /// The Prometheus label name.
    public var name: String { texts.name }
    /// The OpenTelemetry attribute key.
    public var attributeKey: String { texts.attributeKey }
    /// The values, in the order given, without duplicates.
    public var values: [String] { texts.values }
    /// Always `true`: strings outside the set go to `other`.
    public var hasOther: Bool { true }
    /// The number of values, plus one for `other`.
    public let cardinality: Int

    /// Creates a label named `name` over `values` (duplicates are kept once; `other` may not be one of them).
    public init(_ name: String, attributeKey: String? = nil, values: some Sequence<String>) {
        var unique: [String] = []
        var slots: [String: Int] = [:]
        for value in values where slots[value] == nil {
            slots[value] = unique.count
            unique.append(value)
        }
        texts = LabelTexts(name: name, attributeKey: attributeKey, values: unique, slots: slots)
        cardinality = unique.count + 1
    }

    /// The value's slot, or `other`'s.
    public func slot(of value: String) -> Int { texts.slots[value] ?? cardinality - 1 }
}

extension SetLabel {
    /// A value looked up once, to record under several families without hashing it again.
    public struct Slot: Sendable, Hashable {
        /// The value's position in the set, or the set's size for `other`.
        public let index: Int
    }

    /// The slot of `value` (`other`'s when it is not in the set).
    public func resolve(_ value: String) -> Slot { Slot(index: slot(of: value)) }

    /// The same label recording resolved slots: ``resolve(_:)`` once, then record under each family for free.
    public var resolved: ResolvedSetLabel { ResolvedSetLabel(self) }
}

/// A ``SetLabel`` whose values are passed already looked up (``SetLabel/resolve(_:)``).
public struct ResolvedSetLabel: MetricLabel {
    private let texts: LabelTexts
    /// The Prometheus label name.
    public var name: String { texts.name }
    /// The OpenTelemetry attribute key.
    public var attributeKey: String { texts.attributeKey }
    /// The set's values.
    public var values: [String] { texts.values }
    /// Always `true`, as for the set.
    public var hasOther: Bool { true }
    /// The number of values, plus one for `other`.
    public let cardinality: Int

    init(_ label: SetLabel) {
        texts = label.texts
        cardinality = label.cardinality
    }

    /// The resolved slot, kept within the set (and `other`).
    public func slot(of value: SetLabel.Slot) -> Int { min(max(value.index, 0), cardinality - 1) }
}
