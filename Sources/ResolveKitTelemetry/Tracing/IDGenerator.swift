public import ResolveKitCore
import Synchronization

/// Where trace and span ids come from: SplitMix64 over one atomic counter seeded from the system's random source,
/// so an id costs a few nanoseconds and no system call; ids are never zero.
public struct IDGenerator: Sendable {
    private final class State: Sendable {
        let counter: Atomic<UInt64>
        init(seed: UInt64) { counter = Atomic(seed) }
    }

    private let state: State

    /// A generator seeded from the system's random source: what the tracer uses.
    public static let random: IDGenerator = {
        var system = SystemRandomNumberGenerator()
        return IDGenerator(seed: system.next())
    }()

    /// A generator whose ids follow from `seed`, for tests that want the same ids on every run.
    public init(seed: UInt64) {
        state = State(seed: seed)
    }

    /// The next 64 random bits (never zero).
    public func next() -> UInt64 {
        while true {
            var value = state.counter.wrappingAdd(0x9E37_79B9_7F4A_7C15, ordering: .relaxed).newValue
            value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
            value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
            value ^= value >> 31
            if value != 0 { return value }
        }
    }

    /// A new valid trace id.
    public func traceID() -> TraceID { TraceID(high: next(), low: next()) }

    /// A new valid span id.
    public func spanID() -> SpanID { SpanID(rawValue: next()) }
}
