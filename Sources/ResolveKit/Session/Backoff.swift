/// The reconnect schedule for setup, sends and deliveries: 1 s doubling to 30 s, ±20 % jitter.
enum Backoff {
    static func delay(forAttempt attempt: Int, random: Double = Double.random(in: 0...1)) -> Duration {
        let base = min(30.0, pow2(max(0, attempt - 1)))
        return .milliseconds(Int((base * (0.8 + 0.4 * random)) * 1000))
    }

    private static func pow2(_ exponent: Int) -> Double { exponent >= 5 ? 32 : Double(1 << exponent) }
}
