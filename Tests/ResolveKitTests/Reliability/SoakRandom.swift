import Foundation

/// SplitMix64: a tiny, fast, seedable generator, so every fault schedule can be replayed from its seed.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }

    /// Whether an event of probability `percent` happens.
    mutating func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &self) < percent }
}

/// How long and with which seed the soak runs: `RK_SOAK_SEED` and `RK_SOAK_TURNS` from the environment, or the
/// short defaults that `swift test` uses.
struct SoakSettings: Sendable {
    static let defaultSeed: UInt64 = 20_261_122
    static let defaultTurns = 80

    var seed: UInt64
    var turns: Int

    static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> SoakSettings {
        let seed = environment["RK_SOAK_SEED"].flatMap { UInt64($0) } ?? defaultSeed
        let turns = environment["RK_SOAK_TURNS"].flatMap { Int($0) }.map { max(1, $0) } ?? defaultTurns
        return SoakSettings(seed: seed, turns: turns)
    }
}
