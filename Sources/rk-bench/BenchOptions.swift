/// The parsed command line: which workloads to run and how to print.
struct BenchOptions: Equatable {
    var workloads: [String]
    var json: Bool
    /// Where to write every sample behind the percentiles (`--samples DIR`), or `nil`.
    var samples: String? = nil
    /// How many times to run the workloads (`--runs N`): a target such as "p99 under 5 ms in nine of ten runs" is
    /// checked on a series, since one run moves with the machine's speed.
    var runs = 1

    enum Command: Equatable {
        case run(BenchOptions)
        case help
    }

    static let usage = """
        USAGE: rk-bench [<workload> ...] [--json] [--samples <dir>] [--runs <n>]

        Runs benchmarks and prints a table, or one JSON object per line with --json.
        --samples <dir> also writes every sample behind the percentiles of tool-latency and sessions
        (concurrent-dispatch) to tab-separated files in <dir>, made when missing (<dir>/run-<i> with --runs).
        --runs <n> runs the workloads n times (1 to 100) and prints each row's series: its p99 (or its value)
        in every run, their median, how many runs met the row's target where it has one, and for the rows
        built from latency samples (tool-latency, redis, replicas, concurrent-dispatch) the figure of all
        runs' samples pooled; with --json, every row has its "run" (from 1).
        Throughput is bytes per second of thread CPU time (stable on a shared machine), best of several runs.
        Build in release mode for meaningful figures.

        EXAMPLES: swift run -c release rk-bench sse-parse --json
                  swift run -c release rk-bench tool-latency --samples /tmp/rk-samples
                  swift run -c release rk-bench sessions --runs 10

        WORKLOADS:
        """

    /// Parses `arguments` (without the program name); unknown options and workloads are usage errors.
    static func parse(_ arguments: [String], known: [String]) -> Result<Command, BenchFailure> {
        var options = BenchOptions(workloads: [], json: false)
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            switch argument {
            case "--help", "-h":
                return .success(.help)
            case "--json":
                options.json = true
            case "--samples":
                guard let directory = remaining.popFirst(), !directory.hasPrefix("-") else {
                    return .failure(
                        BenchFailure(message: "--samples needs a directory, e.g. --samples /tmp/rk-samples"))
                }
                options.samples = directory
            case "--runs":
                guard let text = remaining.popFirst(), let runs = Int(text), (1...100).contains(runs) else {
                    return .failure(BenchFailure(message: "--runs needs a number from 1 to 100, e.g. --runs 10"))
                }
                options.runs = runs
            case _ where argument.hasPrefix("-"):
                return .failure(BenchFailure(message: "unknown option \(argument); see rk-bench --help"))
            case _ where known.contains(argument):
                options.workloads.append(argument)
            default:
                let list = known.joined(separator: ", ")
                return .failure(BenchFailure(message: "unknown workload \(argument); known workloads: \(list)"))
            }
        }
        if options.workloads.isEmpty { options.workloads = known }
        return .success(.run(options))
    }
}
