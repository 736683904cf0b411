import Foundation
import ResolveKitChildProcess
import Testing

/// Runs the built `rk-devserver` binary: version and the usage-error convention every executable shares.
struct DevServerBinaryTests {
    static let binary: URL = {
        let besideTests = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let candidates = [
            besideTests.appending(path: "rk-devserver"),
            besideTests.deletingLastPathComponent().appending(path: "rk-devserver"),
            packageRoot.appending(path: ".build/debug/rk-devserver"),
        ]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates[2]
    }()

    static func run(_ arguments: [String]) async throws -> (status: Int32, output: String) {
        try await offThePool {
            let output = Pipe()
            let process = try ChildProcess.spawn(
                binary.path, arguments: arguments, standardOutput: .pipe(output), standardError: .pipe(output))
            let data = output.fileHandleForReading.readDataToEndOfFile()
            return (process.waitUntilExit().status, String(decoding: data, as: UTF8.self))
        }
    }

    @Test func aMistakeIsOneLineThatPointsToHelpAndExits64() async throws {
        let run = try await Self.run(["--port", "eighty"])
        #expect(run.status == 64)
        #expect(run.output.hasPrefix("rk-devserver: error: "))
        #expect(run.output.hasSuffix("See rk-devserver --help.\n"))
        #expect(run.output.split(separator: "\n").count == 2)
    }

    @Test func versionPrintsThePackageVersion() async throws {
        let run = try await Self.run(["--version"])
        #expect(run.status == 0)
        #expect(run.output.hasPrefix("rk-devserver 1."))
    }
}
