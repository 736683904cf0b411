/// One benchmark: it builds its own input, measures every contender, and returns one row per figure.
///
/// Add a workload by writing a type in its own file and listing it in ``Workloads/all``.
protocol Workload: Sendable {
    /// The name used on the command line and in the `workload` JSON field, e.g. `sse-parse`.
    var name: String { get }
    /// One line for `--help`.
    var summary: String { get }
    /// Runs the workload. `log` receives progress lines meant for people (stderr).
    func run(log: @Sendable (String) -> Void) async throws(BenchFailure) -> [Measurement]
    /// Runs the workload and writes the samples behind its percentiles to `samples`, for a workload that keeps
    /// them; the others just run.
    func run(log: @Sendable (String) -> Void, samples: SampleFiles?) async throws(BenchFailure) -> [Measurement]
}

extension Workload {
    func run(log: @Sendable (String) -> Void, samples: SampleFiles?) async throws(BenchFailure) -> [Measurement] {
        try await run(log: log)
    }

    /// The nearest-rank percentile `p` (0...1) of samples sorted ascending; 0 when there are none.
    static func percentile(_ sorted: [Double], _ p: Double) -> Double {
        sorted.nearestRank(p)
    }
}

extension [Double] {
    /// The nearest-rank percentile `p` (0...1) of these samples, sorted ascending; 0 when there are none.
    func nearestRank(_ p: Double) -> Double {
        isEmpty ? 0 : self[Swift.min(count - 1, Int(Double(count) * p))]
    }

    /// The middle value (the mean of the two middle ones for an even count); `nil` for none.
    var median: Double? {
        guard !isEmpty else { return nil }
        let sorted = sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
}

/// Every workload `rk-bench` knows, in the order they run by default.
enum Workloads {
    static let all: [any Workload] = [
        SSEParseWorkload(), ToolLatencyWorkload(), CodegenWorkload(), SessionsWorkload(), RedisWorkload(),
        ReplicasWorkload(), TelemetryWorkload(), MachineWorkload(),
    ]

    static func named(_ name: String) -> (any Workload)? { all.first { $0.name == name } }
}

/// One measured figure.
struct Measurement: Sendable {
    /// The workload's name.
    var workload: String
    /// Who was measured, e.g. `resolvekit`, `naive`, `memchr`.
    var contender: String
    /// The input chunk size in bytes, when the workload varies it.
    var chunk: Int?
    /// The figure: throughput, or the mean latency for latency rows.
    var value: Double
    /// `MB/s` for throughput, `us` for latency.
    var unit: String
    /// More figures of the row, each its own JSON field: latency percentiles (`p50`, `p99`, in `unit`), the
    /// session count `n`, counts such as `lost` and `duplicates`.
    var details: [String: Double] = [:]
    /// What the row must stay under, where it has a target: a series of runs (`--runs`) counts the runs that were.
    var target: Target? = nil
    /// The samples the row's percentiles were taken from, for a series of runs to pool (never printed).
    var samples: [Double] = []
    /// The contender of the same run whose samples the row's `vs_off_*` figures compare with.
    var baseline: String? = nil

    /// A target: `figure` (a detail's name, or `value`) at most `limit`, in the row's unit (in % for `vs_off_*`).
    struct Target: Sendable, Equatable {
        var figure: String
        var limit: Double
    }

    /// The figure `name`: `value`, or one of the details.
    func figure(_ name: String) -> Double? { name == "value" ? value : details[name] }
}

/// A workload whose contenders disagreed or whose input was wrong: the figures cannot be trusted.
struct BenchFailure: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}

extension Duration {
    /// The duration in seconds.
    var inSeconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
