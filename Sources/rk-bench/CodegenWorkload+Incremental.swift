import Foundation
import ResolveKitCodegen

extension CodegenWorkload {
    /// `incremental-one-file`: with a warm `--cache` over the corpus, one file changes (a comment appended) and the
    /// registry is generated again as `rk-codegen --cache` does it: read every file, take the unchanged models from
    /// the cache, scan the changed one, answer with the cached result when no model changed (else resolve and render
    /// over all), write the cache. Median of 7 edits.
    func incrementalRow(paths: [String], log: @Sendable (String) -> Void) throws(BenchFailure) -> Measurement {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rk-bench-cache-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        func regenerate() throws(BenchFailure) -> (CodegenPipeline.Output, ModelCache) {
            let inputs = paths.map { path in
                let bytes = FileManager.default.contents(atPath: path) ?? Data()
                return CodegenPipeline.Input(path: path, contents: String(decoding: bytes, as: UTF8.self))
            }
            var cache = ModelCache(directory: directory)
            let output = CodegenPipeline.run(inputs, options: CodegenOptions(), cache: &cache, withManifest: false)
            do { try cache.write(directory: directory) } catch {
                throw BenchFailure(message: "cannot write the cache in \(directory): \(error.localizedDescription)")
            }
            return (output, cache)
        }
        _ = try regenerate()
        var times: [Double] = []
        for edit in 1...7 {
            let path = paths[edit * 97 % paths.count]
            guard let handle = FileHandle(forWritingAtPath: path) else {
                throw BenchFailure(message: "cannot edit \(path)")
            }
            handle.seekToEndOfFile()
            handle.write(Data("// edit \(edit)\n".utf8))
            handle.closeFile()
            var result: (CodegenPipeline.Output, ModelCache)?
            var failure: BenchFailure?
            times.append(
                Self.milliseconds {
                    do throws(BenchFailure) { result = try regenerate() } catch { failure = error }
                })
            if let failure { throw failure }
            guard let (output, cache) = result, !output.hasErrors, cache.scannedCount == 1 else {
                throw BenchFailure(message: "the incremental run did not scan exactly the edited file")
            }
            log("codegen incremental edit \(edit): \(Self.format(times.last!)) ms")
        }
        return Measurement(
            workload: name, contender: "incremental-one-file", chunk: nil, value: times.median ?? 0, unit: "ms",
            details: ["best": times.min()!])
    }
}
