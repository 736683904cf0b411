extension Duration {
    /// Seconds to a hundredth, as log lines say a wait: `1.74 s` (a backoff's jitter makes the rest noise), or
    /// whole ones, `60 s`.
    var inWords: String {
        let hundredths = (components.seconds * 100 + components.attoseconds / 10_000_000_000_000_000)
        let fraction = hundredths % 100
        guard fraction != 0 else { return "\(hundredths / 100) s" }
        return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction) s"
    }
}
