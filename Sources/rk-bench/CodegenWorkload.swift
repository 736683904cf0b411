import Foundation
import ResolveKitChildProcess
import ResolveKitCodegen

/// `codegen`: the rk-codegen pipeline over a generated corpus of 1,000 files (2,000 functions plus noise), beside
/// the time to read those files from disk in the same run; and the whole `rk-codegen` process: `--version`, and a
/// run over one small file.
struct CodegenWorkload: Workload {
    let name = "codegen"
    let summary =
        "rk-codegen over 1,000 files vs reading them, and after a one-file edit with --cache (median of 7, ms); "
        + "the rk-codegen process (median of 20)"

    func run(log: @Sendable (String) -> Void) async throws(BenchFailure) -> [Measurement] {
        let corpus = CodegenBenchmark.corpus(fileCount: 1000)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rk-bench-codegen-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            for input in corpus {
                let file = folder.appendingPathComponent((input.path as NSString).lastPathComponent)
                try Data(input.contents.utf8).write(to: file)
            }
        } catch {
            throw BenchFailure(message: "cannot write the corpus to \(folder.path): \(error.localizedDescription)")
        }
        let paths = corpus.map { folder.appendingPathComponent(($0.path as NSString).lastPathComponent).path }
        var reads: [Double] = []
        var runs: [Double] = []
        for round in 1...7 {
            var inputs: [CodegenPipeline.Input] = []
            reads.append(
                Self.milliseconds {
                    inputs = paths.map { path in
                        let bytes = FileManager.default.contents(atPath: path) ?? Data()
                        return CodegenPipeline.Input(path: path, contents: String(decoding: bytes, as: UTF8.self))
                    }
                })
            var output: CodegenPipeline.Output?
            runs.append(Self.milliseconds { output = CodegenPipeline.run(inputs) })
            guard output?.hasErrors == false else {
                throw BenchFailure(message: "the corpus did not generate without errors")
            }
            log("codegen round \(round): read \(Self.format(reads.last!)) ms, pipeline \(Self.format(runs.last!)) ms")
        }
        let read = reads.median ?? 0
        let pipeline = runs.median ?? 0
        var rows = [
            Measurement(
                workload: name, contender: "read-files", chunk: nil, value: read, unit: "ms",
                details: ["best": reads.min()!]),
            Measurement(
                workload: name, contender: "rk-codegen", chunk: nil, value: pipeline, unit: "ms",
                details: ["best": runs.min()!, "ratio_to_read": pipeline / read]),
        ]
        rows.append(try incrementalRow(paths: paths, log: log))
        rows += try processRows(smallFile: paths[0], log: log)
        return rows
    }

    /// `rk-codegen --version` and `rk-codegen` over one small file, as whole processes (the release binary next to
    /// this one).
    private func processRows(smallFile: String, log: @Sendable (String) -> Void) throws(BenchFailure) -> [Measurement] {
        let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("rk-codegen")
        guard FileManager.default.isExecutableFile(atPath: binary.path) else {
            log("no rk-codegen next to rk-bench (swift build -c release --product rk-codegen): no process rows")
            return []
        }
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("rk-bench-one-\(UUID()).swift").path
        defer { try? FileManager.default.removeItem(atPath: output) }
        var rows: [Measurement] = []
        for (contender, arguments) in [
            ("rk-codegen --version", ["--version"]),
            ("rk-codegen one file", [smallFile, "--output", output, "--module-name", "One"]),
        ] {
            var times: [Double] = []
            for _ in 0..<20 {
                var ended: Result<ChildProcess.Termination, ChildProcessError>?
                let elapsed = Self.milliseconds {
                    ended = Result { () throws(ChildProcessError) in
                        try ChildProcess.spawn(
                            binary.path, arguments: arguments, standardOutput: .nullDevice, standardError: .nullDevice
                        ).waitUntilExit()
                    }
                }
                switch ended {
                case .success(let termination) where termination == .init(reason: .exit, status: 0): break
                case .success(let termination): throw BenchFailure(message: "\(contender) ended with \(termination)")
                case .failure(let error): throw BenchFailure(message: "\(contender): \(error)")
                case nil: throw BenchFailure(message: "\(contender) did not run")
                }
                times.append(elapsed)
            }
            rows.append(
                Measurement(
                    workload: name, contender: contender, chunk: nil, value: times.median ?? 0, unit: "ms",
                    details: ["best": times.min()!]))
        }
        return rows
    }

    static func milliseconds(_ body: () -> Void) -> Double {
        ContinuousClock().measure(body).inSeconds * 1000
    }

    static func format(_ value: Double) -> String { String(format: "%.1f", value) }
}
