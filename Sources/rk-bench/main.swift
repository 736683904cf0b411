import Glibc

/// Exit codes: 0 success, 1 a workload failed its own checks, 64 usage error.
func writeError(_ text: String) {
    let bytes = Array((text + "\n").utf8)
    _ = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
}

if CommandLine.arguments.dropFirst().first == BackendChild.flag {
    do {
        try await BackendChild.serve(Array(CommandLine.arguments.dropFirst(2)))
        exit(0)
    } catch {
        writeError("error: backend child: \(error)")
        exit(1)
    }
}

if CommandLine.arguments.dropFirst().first == SessionsWorkload.idleChildFlag {
    do {
        try await SessionsWorkload.serveIdle(Array(CommandLine.arguments.dropFirst(2)))
        exit(0)
    } catch {
        writeError("error: idle sessions: \(error)")
        exit(1)
    }
}

if CommandLine.arguments.dropFirst().first == OTLPSinkChild.flag {
    do {
        try await OTLPSinkChild.serve()
        exit(0)
    } catch {
        writeError("error: OTLP sink: \(error)")
        exit(1)
    }
}

if CommandLine.arguments.dropFirst().first == ReplicaChild.flag {
    await ReplicaChild.serve(Array(CommandLine.arguments.dropFirst(2)))
    exit(0)
}

if CommandLine.arguments.dropFirst().first == AllocationCounter.flag {
    do {
        try AllocationCounter.serve(Array(CommandLine.arguments.dropFirst(2)))
        exit(0)
    } catch {
        writeError("error: allocation counter: \(error)")
        exit(1)
    }
}

let known = Workloads.all.map(\.name)
switch BenchOptions.parse(Array(CommandLine.arguments.dropFirst()), known: known) {
case .failure(let failure):
    writeError("error: \(failure.message)")
    exit(64)
case .success(.help):
    print(BenchOptions.usage)
    for workload in Workloads.all { print("  \(workload.name)  \(workload.summary)") }
case .success(.run(let options)):
    var runs: [[Measurement]] = []
    for run in 1...options.runs {
        if options.runs > 1 { writeError("rk-bench: run \(run) of \(options.runs)") }
        var samples: SampleFiles?
        if let directory = options.samples {
            do throws(BenchFailure) {
                samples = try SampleFiles(directory: options.runs > 1 ? directory + "/run-\(run)" : directory)
            } catch {
                writeError("error: \(error.message)")
                exit(64)
            }
        }
        var measurements: [Measurement] = []
        for name in options.workloads {
            guard let workload = Workloads.named(name) else { continue }
            do {
                let rows = try await workload.run(log: writeError, samples: samples)
                measurements += rows
                if options.json { rows.forEach { print(Report.jsonLine($0, run: options.runs > 1 ? run : nil)) } }
            } catch {
                writeError("error: \(name): \(error)")
                exit(1)
            }
        }
        runs.append(measurements)
    }
    if !options.json { print(options.runs > 1 ? Report.series(runs) : Report.table(runs[0])) }
}
