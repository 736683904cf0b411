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
        // A copy just written (InstallTests) is "busy" while another test's child still holds its write
        // descriptor; `ChildProcess` waits that out.
        let output = try await offThePool {
            try ChildProcess.run(executable, arguments: arguments, environment: environment)
        }
        return Run(
            status: output.termination.status, stdout: output.standardOutput, stderr: output.standardError)
    }
}
