import Synchronization

/// A fixed array of 64-bit atomics: every counter, gauge and histogram value of one family, allocated once when
/// the family is registered. Recording is one relaxed atomic operation (a compare-and-swap loop for a `Double`), so
/// the hot path takes no lock and allocates nothing.
///
/// `@unchecked Sendable`: the pointer is allocated in `init`, freed in `deinit`, and every element is only ever
/// accessed through its `Atomic`.
final class MetricSlots: @unchecked Sendable {
    private let base: UnsafeMutablePointer<Atomic<UInt64>>
    /// How many slots there are.
    let count: Int

    /// Allocates `count` slots, each holding `initial`.
    init(count: Int, initial: UInt64 = 0) {
        self.count = count
        base = .allocate(capacity: max(count, 1))
        for index in 0..<count { (base + index).initialize(to: Atomic(initial)) }
    }

    deinit {
        base.deinitialize(count: count)
        base.deallocate()
    }

    /// Adds `amount` to the integer in `slot`, wrapping at 2^64.
    func add(_ amount: UInt64, at slot: Int) {
        base[slot].wrappingAdd(amount, ordering: .relaxed)
    }

    /// The integer in `slot`.
    func load(_ slot: Int) -> UInt64 {
        base[slot].load(ordering: .relaxed)
    }

    /// Stores `value`'s bits in `slot`.
    func store(_ value: Double, at slot: Int) {
        base[slot].store(value.bitPattern, ordering: .relaxed)
    }

    /// Sets the integer in `slot`; returns the previous one.
    @discardableResult
    func exchange(_ value: UInt64, at slot: Int) -> UInt64 {
        base[slot].exchange(value, ordering: .relaxed)
    }

    /// Adds `amount` to the `Double` whose bits `slot` holds.
    func addDouble(_ amount: Double, at slot: Int) {
        var old = base[slot].load(ordering: .relaxed)
        while true {
            let new = (Double(bitPattern: old) + amount).bitPattern
            let (exchanged, original) = base[slot].compareExchange(
                expected: old, desired: new, ordering: .relaxed)
            if exchanged { return }
            old = original
        }
    }

    /// The `Double` whose bits `slot` holds.
    func loadDouble(_ slot: Int) -> Double {
        Double(bitPattern: base[slot].load(ordering: .relaxed))
    }
}
