extension Report {
    /// The rows of several runs (`--runs`), one line per row: its target's figure (or its p99, or its value) in
    /// every run, their median, how many runs met the target, and for a row with samples the figure of all runs'
    /// samples pooled (`all runs`).
    ///
    /// A run's p99 of 2,000 calls is its 20th slowest: on a busy machine it swings by tens of percent from run to
    /// run, and a median of per-run comparisons inherits that. The pooled figure is the same percentile of every
    /// run's samples together (20 runs: its 400th slowest), and a `vs_off_*` figure compares it with the pooled
    /// samples of the row it was measured against.
    static func series(_ runs: [[Measurement]]) -> String {
        var order: [String] = []
        var rows: [String: [Measurement]] = [:]
        for run in runs {
            for measurement in run {
                let key = seriesKey(measurement)
                if rows[key] == nil { order.append(key) }
                rows[key, default: []].append(measurement)
            }
        }
        let header = ["workload", "contender", "n", "figure", "unit", "median", "met", "all runs", "by run"]
        let lines = order.compactMap { key -> [String]? in
            guard let series = rows[key], let first = series.first else { return nil }
            let figure = first.target?.figure ?? (first.details["p99"] == nil ? "value" : "p99")
            let values = series.compactMap { $0.figure(figure) }
            let met = first.target.map { target in
                "\(values.filter { $0 <= target.limit }.count) of \(values.count) ≤ \(rounded(target.limit))"
            }
            let baseline = first.baseline.flatMap { rows[seriesKey(first, contender: $0)] }
            let pooled = pooledFigure(figure, of: series, against: baseline)
            return [
                first.workload, first.contender + (first.chunk.map { " (\($0) B)" } ?? ""),
                first.details["n"].map { String(Int($0)) } ?? "-", figure,
                figure.hasPrefix("vs_off") ? "%" : first.unit, values.median.map { String(rounded($0)) } ?? "-",
                met ?? "-", pooled.map { String(rounded($0)) } ?? "-",
                values.map { String(rounded($0)) }.joined(separator: " "),
            ]
        }
        return aligned([header] + lines)
    }

    /// `figure` (`p50`, `p99`, `vs_off_p50` or `vs_off_p99`) of the series' samples pooled; `nil` for other figures
    /// and rows without samples.
    static func pooledFigure(_ figure: String, of series: [Measurement], against baseline: [Measurement]?) -> Double? {
        let percentiles = ["p50": 0.5, "p99": 0.99]
        let samples = series.flatMap(\.samples).sorted()
        guard !samples.isEmpty else { return nil }
        if let p = percentiles[figure] { return samples.nearestRank(p) }
        guard figure.hasPrefix("vs_off_"), let p = percentiles[String(figure.dropFirst(7))],
            let baseline = baseline?.flatMap(\.samples).sorted(), !baseline.isEmpty
        else { return nil }
        return (samples.nearestRank(p) / baseline.nearestRank(p) - 1) * 100
    }

    private static func seriesKey(_ measurement: Measurement, contender: String? = nil) -> String {
        let contender = contender ?? measurement.contender
        return "\(measurement.workload)|\(contender)|\(measurement.chunk ?? -1)|\(measurement.details["n"] ?? -1)"
    }
}
