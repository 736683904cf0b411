import Foundation
import ResolveKitCLI
import ResolveKitCodegen
import ResolveKitCore

/// `rk-codegen`: parse the command line, read the sources, run the pipeline, write or check the outputs.
@main
enum RKCodegen {
    static func main() {
        let tool = CodegenFlags.tool
        let parsed = tool.parseOrExit(version: ResolveKitVersion.current)
        let options: CommandLineOptions
        do {
            options = try CommandLineOptions.make(parsed)
        } catch {
            tool.exit(with: error)
        }
        let code: Int32
        do {
            code = try run(options)
        } catch {
            printError("rk-codegen: error: \(error)")
            code = 4
        }
        exit(code)
    }

    static func run(_ options: CommandLineOptions) throws -> Int32 {
        let output = URL(fileURLWithPath: options.output ?? "").standardizedFileURL
        let paths = try SourceFiles.collect(options.inputs, excluding: output.path)
        let inputs = try paths.map { path in
            CodegenPipeline.Input(path: path, contents: try SourceFiles.read(path))
        }
        let codegenOptions = CodegenOptions(moduleName: options.moduleName, registryAccess: options.access)
        let result: CodegenPipeline.Output
        if let directory = options.cache {
            var cache = ModelCache(directory: directory)
            result = CodegenPipeline.run(
                inputs, options: codegenOptions, cache: &cache, withManifest: options.manifest != nil)
            // A cache that cannot be written costs the next run time, not correctness: a warning, not a failure.
            do { try cache.write(directory: directory) } catch {
                printError("rk-codegen: warning: cannot write the cache in \(directory): \(FileSystemReason.of(error))")
            }
        } else {
            result = CodegenPipeline.run(inputs, options: codegenOptions)
        }
        for diagnostic in result.diagnostics { printError(diagnostic.description) }
        // Bytes, not text: a result from the cache is compared with the file on disk without decoding it.
        guard let source = result.sourceUTF8 else { return 1 }
        var targets = [(output.path, source)]
        // The JSON manifest costs as much as a sixth of the run: it is rendered only when asked for.
        if let manifestPath = options.manifest, let manifest = result.manifestJSON {
            targets.append((manifestPath, Array(manifest.utf8)[...]))
        }
        if options.check {
            var isStale = false
            for (path, bytes) in targets {
                let current = (try? SourceFiles.read(path)) ?? ""
                let text = String(decoding: bytes, as: UTF8.self)
                if let diff = LineDiff.unified(old: current, new: text, oldName: path, newName: "\(path) (generated)") {
                    print(diff, terminator: "")
                    isStale = true
                }
            }
            if isStale { printError("rk-codegen: error: generated files are stale; run rk-codegen without --check") }
            return isStale ? 3 : 0
        }
        for (path, bytes) in targets { try SourceFiles.writeIfChanged(bytes, to: path) }
        return 0
    }

    static func printError(_ message: String) {
        FileHandle.standardError.write(Data((message + "\n").utf8))
    }
}
