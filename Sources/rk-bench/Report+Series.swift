extension Report {
    /// The rows of several runs (`--runs`), one line per row: its target's figure (or its p99, or its value) in
    /// every run, their median, and how many runs met the target.
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
        let header = ["workload", "contender", "n", "figure", "unit", "median", "met", "by run"]
        let lines = order.compactMap { key -> [String]? in
            guard let series = rows[key], let first = series.first else { return nil }
            let figure = first.target?.figure ?? (first.details["p99"] == nil ? "value" : "p99")
            let values = series.compactMap { $0.figure(figure) }
            let met = first.target.map { target in
                "\(values.filter { $0 <= target.limit }.count) of \(values.count) ≤ \(rounded(target.limit))"
            }
            return [
                first.workload, first.contender + (first.chunk.map { " (\($0) B)" } ?? ""),
                first.details["n"].map { String(Int($0)) } ?? "-", figure,
                figure.hasPrefix("vs_off") ? "%" : first.unit, values.median.map { String(rounded($0)) } ?? "-",
                met ?? "-", values.map { String(rounded($0)) }.joined(separator: " "),
            ]
        }
        return aligned([header] + lines)
    }

    private static func seriesKey(_ measurement: Measurement) -> String {
        "\(measurement.workload)|\(measurement.contender)|\(measurement.chunk ?? -1)|\(measurement.details["n"] ?? -1)"
    }
}
