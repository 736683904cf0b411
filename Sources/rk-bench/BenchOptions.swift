/// The parsed command line: which workloads to run and how to print.
struct BenchOptions: Equatable {
    var workloads: [String]
    var json: Bool

    enum Command: Equatable {
        case run(BenchOptions)
        case help
    }

    static let usage = """
        USAGE: rk-bench [<workload> ...] [--json]

        Runs benchmarks and prints a table, or one JSON object per line with --json.
        Build in release mode for meaningful figures.

        EXAMPLE: swift run -c release rk-bench sse-parse --json

        WORKLOADS:
        """

    /// Parses `arguments` (without the program name); unknown options and workloads are usage errors.
    static func parse(_ arguments: [String], known: [String]) -> Result<Command, BenchFailure> {
        var options = BenchOptions(workloads: [], json: false)
        for argument in arguments {
            switch argument {
            case "--help", "-h":
                return .success(.help)
            case "--json":
                options.json = true
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
