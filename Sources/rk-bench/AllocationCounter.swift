import Foundation
import Glibc
import ResolveKitChildProcess
import ResolveKitTelemetry

/// Counts heap allocations exactly with glibc's `mtrace`: this executable is started again with
/// `libc_malloc_debug.so.0` preloaded, runs each operation with tracing on, and the parent counts the allocations
/// (`+` and realloc's `>` lines) each trace file holds. Available on glibc 2.34 and later.
enum AllocationCounter {
    static let flag = "--count-allocations"
    static let library = "libc_malloc_debug.so.0"
    static let iterations = 1000

    /// In the parent: runs the child and returns allocations per operation, by operation name; `nil` when the
    /// machine's glibc has no malloc debug library.
    static func measure(log: (String) -> Void) throws -> [String: Double]? {
        let candidates = ["/lib/x86_64-linux-gnu/", "/usr/lib/x86_64-linux-gnu/", "/lib/aarch64-linux-gnu/", "/lib64/"]
        guard candidates.contains(where: { FileManager.default.fileExists(atPath: $0 + library) }) else {
            log("telemetry: no \(library) (glibc 2.34 or later): allocations not counted")
            return nil
        }
        let folder = FileManager.default.temporaryDirectory.appending(path: "rk-bench-mtrace-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var environment = ProcessInfo.processInfo.environment
        environment["LD_PRELOAD"] = library
        let output = try ChildProcess.run("/proc/self/exe", arguments: [flag, folder.path], environment: environment)
        guard output.termination.status == 0 else {
            throw BenchFailure(message: "the allocation-counting child failed: \(output.standardError)")
        }
        var result: [String: Double] = [:]
        for name in output.standardOutput.split(separator: "\n").map(String.init) {
            let trace = try String(contentsOf: folder.appending(path: name), encoding: .utf8)
            let allocations = trace.split(separator: "\n").filter { $0.contains(" + ") || $0.contains(" > ") }.count
            result[name] = Double(allocations) / Double(iterations)
        }
        return result
    }

    /// In the child: traces each operation into `<folder>/<name>` and prints the names.
    static func serve(_ arguments: [String]) throws {
        guard let folder = arguments.first else { throw BenchFailure(message: "usage: \(flag) FOLDER") }
        typealias Hook = @convention(c) () -> Void
        typealias VersionedSymbol =
            @convention(c) (
                UnsafeMutableRawPointer?, UnsafePointer<CChar>, UnsafePointer<CChar>
            ) -> UnsafeMutableRawPointer?
        // mtrace is a compatibility symbol of the debug library, which dlsym does not find: ask for its version.
        guard let lookup = dlsym(dlopen(nil, RTLD_NOW), "dlvsym"),
            let handle = dlopen(library, RTLD_NOW | RTLD_NOLOAD)
        else { throw BenchFailure(message: "\(library) is not preloaded") }
        let versioned = unsafeBitCast(lookup, to: VersionedSymbol.self)
        guard let start = versioned(handle, "mtrace", "GLIBC_2.2.5"),
            let stop = versioned(handle, "muntrace", "GLIBC_2.2.5")
        else { throw BenchFailure(message: "\(library) has no mtrace") }
        let (mtrace, muntrace) = (unsafeBitCast(start, to: Hook.self), unsafeBitCast(stop, to: Hook.self))
        let operations = try TelemetryOperations()
        let tracer = Tracer(processor: DiscardingProcessor())
        let turn = tracer.startTurn(sessionID: "s", requestID: "r")
        var all = operations.metricOperations
        all.append(TelemetryOperations.spanOperation("span-start-end", tracer: tracer))
        all.append(
            TelemetryOperations.Operation(name: "call-spans") { count in
                for _ in 0..<count { TelemetryOperations.callSpans(tracer, parent: turn) }
            })
        for operation in all {
            operation.body(iterations)  // warm up: first uses may allocate once
            setenv("MALLOC_TRACE", folder + "/" + operation.name, 1)
            mtrace()
            operation.body(iterations)
            muntrace()
            print(operation.name)
        }
    }
}

/// Takes ended spans and drops them: the span's own cost, without a queue.
struct DiscardingProcessor: SpanProcessor {
    func onEnd(_ span: FinishedSpan) {
        blackHole(span)
    }
}
