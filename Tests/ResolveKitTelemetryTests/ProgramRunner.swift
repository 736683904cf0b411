import Foundation
import ResolveKitChildProcess

/// Runs a program to its end on a thread of its own (ChildProcess.run blocks), for the tests that use a real
/// promtool or Python.
enum ProgramRunner {
    static func run(_ executable: String, _ arguments: [String], input: String? = nil) async throws
        -> ChildProcess.Output
    {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(
                    with: Result {
                        guard let input else { return try ChildProcess.run(executable, arguments: arguments) }
                        let pipe = Pipe()
                        try pipe.fileHandleForWriting.write(contentsOf: Data(input.utf8))
                        try pipe.fileHandleForWriting.close()
                        return try ChildProcess.run(executable, arguments: arguments, standardInput: .pipe(pipe))
                    })
            }
        }
    }

    /// A file in a fresh temporary folder holding `bytes`; the folder is removed by `body`'s end.
    static func withTemporaryFile<R>(
        named name: String, _ bytes: [UInt8], _ body: (String) async throws -> R
    ) async throws -> R {
        let folder = FileManager.default.temporaryDirectory.appending(path: "rk-telemetry-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appending(path: name)
        try Data(bytes).write(to: file)
        return try await body(file.path)
    }

    /// The folder of this test target's sources.
    static let testsFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    /// The package root.
    static let packageRoot = testsFolder.deletingLastPathComponent().deletingLastPathComponent()
}
