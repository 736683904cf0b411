import ResolveKitCodegen

/// `codegen`: the whole rk-codegen pipeline (scan, model, manifest, render) over a generated corpus of 1,000
/// files with 1–3 functions each plus noise code. Target: under 1 s in release mode.
struct CodegenWorkload: Workload {
    let name = "codegen"
    let summary = "rk-codegen over a generated corpus of 1,000 files (best of 5, ms)"

    func run(log: @Sendable (String) -> Void) async throws(BenchFailure) -> [Measurement] {
        var times: [Double] = []
        for round in 1...5 {
            let duration = CodegenBenchmark.run(fileCount: 1000)
            let milliseconds = Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
            times.append(milliseconds)
            log("codegen round \(round): \(Int(milliseconds)) ms")
        }
        times.sort()
        return [Measurement(
            workload: name, contender: "resolvekit", chunk: nil, value: times[0], unit: "ms",
            details: ["p50": times[times.count / 2]])]
    }
}
