extension Duration {
    /// Seconds to a hundredth, as log lines say a wait: `1.74 s` (a backoff's jitter makes the rest noise).
    var inWords: String {
        let hundredths = (components.seconds * 100 + components.attoseconds / 10_000_000_000_000_000)
        let fraction = hundredths % 100
        return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction) s"
    }
}
