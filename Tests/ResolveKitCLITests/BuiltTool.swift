import Foundation
import ResolveKitChildProcess

/// A tool of this package as built for the tests, run as a person or a script would.
struct BuiltTool {
    /// Every tool a user runs, each parsing its flags with the shared parser.
    static let all = ["rk-chat", "rk-service", "rk-approve", "rk-mcp", "rk-devserver", "rk-codegen", "rk-install"]

    /// The folder the tools were built in, beside the test bundle or in `.build/debug`.
    static let folder: URL = {
        let besideTests = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let candidates = [
            besideTests, besideTests.deletingLastPathComponent(), packageRoot.appending(path: ".build/debug"),
        ]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.appending(path: "rk-chat").path) }
            ?? candidates[2]
    }()

    struct Run {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs `tool` with `arguments`, stdin empty, in an environment that configures no backend.
    static func run(_ tool: String, _ arguments: [String], at path: String? = nil) async throws -> Run {
        let environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("RESOLVEKIT_") }
        let executable = path ?? folder.appending(path: tool).path
        let output = try await offThePool {
            try runRetryingBusyText(executable, arguments: arguments, environment: environment)
        }
        return Run(
            status: output.termination.status, stdout: output.standardOutput, stderr: output.standardError)
    }

    /// Runs `executable`, again while it is "busy": a copy just written (InstallTests) fails with `ETXTBSY` while a
    /// process another test is spawning at that moment still holds the copy's write descriptor, until it execs.
    private static func runRetryingBusyText(
        _ executable: String, arguments: [String], environment: [String: String]
    ) throws -> ChildProcess.Output {
        for _ in 0..<20 {
            let result = Result { () throws(ChildProcessError) in
                try ChildProcess.run(executable, arguments: arguments, environment: environment)
            }
            if case .failure(let error) = result, error.errno == ETXTBSY {
                usleep(50_000)
                continue
            }
            return try result.get()
        }
        return try ChildProcess.run(executable, arguments: arguments, environment: environment)
    }
}
