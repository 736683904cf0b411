import ResolveKitCore

/// Renders measurements as a table for people or as one JSON object per line.
enum Report {
    /// One JSON object: the row's fields and details, and `run` (from 1) when it is one of several runs.
    static func jsonLine(_ measurement: Measurement, run: Int? = nil) -> String {
        var object: JSONObject = [
            "workload": .string(measurement.workload),
            "contender": .string(measurement.contender),
            "value": .number(rounded(measurement.value)),
            "unit": .string(measurement.unit),
        ]
        if let chunk = measurement.chunk { object["chunk"] = .number(Double(chunk)) }
        for (name, value) in measurement.details { object[name] = .number(rounded(value)) }
        if let run { object["run"] = .number(Double(run)) }
        return JSONValue.object(object).serialized(options: .sortedKeys)
    }

    static func table(_ measurements: [Measurement]) -> String {
        let header = ["workload", "contender", "chunk", "value", "unit", "vs first", "details"]
        var rows: [[String]] = []
        var baseline: [String: Double] = [:]
        for measurement in measurements {
            let key = "\(measurement.workload)/\(measurement.chunk ?? 0)"
            let first = baseline[key] ?? measurement.value
            baseline[key] = first
            rows.append([
                measurement.workload, measurement.contender, measurement.chunk.map(String.init) ?? "-",
                String(rounded(measurement.value)), measurement.unit,
                measurement.unit == "MB/s" ? String(rounded(measurement.value / first * 100)) + " %" : "-",
                measurement.details.sorted { $0.key < $1.key }.map { "\($0.key) \(rounded($0.value))" }
                    .joined(separator: ", "),
            ])
        }
        return aligned([header] + rows)
    }

    /// `lines` (a header first) in columns as wide as their widest cell, a rule under the header.
    static func aligned(_ lines: [[String]]) -> String {
        guard let header = lines.first else { return "" }
        let widths = header.indices.map { column in lines.map { $0[column].count }.max() ?? 0 }
        func line(_ cells: [String]) -> String {
            var text = zip(cells, widths).map { cell, width in
                cell + String(repeating: " ", count: width - cell.count)
            }.joined(separator: "  ")
            while text.last == " " { text.removeLast() }
            return text
        }
        return ([line(header), line(widths.map { String(repeating: "-", count: $0) })] + lines.dropFirst().map(line))
            .joined(separator: "\n")
    }

    /// One decimal place is enough for people and stable for diffs.
    static func rounded(_ value: Double) -> Double { (value * 10).rounded() / 10 }
}
