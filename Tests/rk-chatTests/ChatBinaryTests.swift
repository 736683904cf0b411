import Foundation
import Testing

/// Runs the built `rk-chat` binary as a user or a script would.
@Suite(.timeLimit(.minutes(1)))
struct ChatBinaryTests {
    static let binary: URL = {
        let besideTests = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let candidates = [
            besideTests.appending(path: "rk-chat"),
            besideTests.deletingLastPathComponent().appending(path: "rk-chat"),
            packageRoot.appending(path: ".build/debug/rk-chat"),
        ]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates[2]
    }()

    struct Run {
        var status: Int32
        var output: String
    }

    static func run(_ arguments: [String]) throws -> Run {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("RESOLVEKIT_") }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(status: process.terminationStatus, output: String(decoding: data, as: UTF8.self))
    }

    @Test func oneShotDemoPrintsTheToolResultAndTheAnswer() throws {
        let run = try Self.run(["--demo", "--message", "What time is it?", "--approve", "all"])
        #expect(run.status == 0, "\(run.output)")
        #expect(run.output.contains("you › What time is it?"))
        #expect(run.output.contains("tool get_local_time: completed → {"))
        #expect(run.output.contains(#"agent › Done. The get_local_time returned"#))
    }

    @Test func declinedCallsAreReportedAsDeclined() throws {
        let run = try Self.run(["--demo", "--message", "show me the log", "--approve", "none"])
        #expect(run.status == 0, "\(run.output)")
        #expect(run.output.contains("tool read_log_tail: declined: User denied action"))
    }

    @Test func aPolicyFileDecidesWithoutATerminal() throws {
        let policy = FileManager.default.temporaryDirectory.appending(path: "rk-chat-policy-\(UUID().uuidString).json")
        try Data(#"{"default": "deny", "functions": {"read_log_tail": "allow"}}"#.utf8).write(to: policy)
        defer { try? FileManager.default.removeItem(at: policy) }
        let run = try Self.run(["--demo", "-m", "show me the log", "--approve", policy.path])
        #expect(run.status == 0, "\(run.output)")
        #expect(run.output.contains("tool read_log_tail: completed"))
    }

    @Test(arguments: [["--bogus"], ["--demo", "--base-url", "http://x"], ["--message"], ["--api-key", "rk_1"]])
    func usageErrorsExitWithTwo(arguments: [String]) throws {
        let run = try Self.run(arguments)
        #expect(run.status == 2)
        #expect(run.output.hasPrefix("rk-chat: "))
    }

    @Test func helpShowsARealExample() throws {
        let run = try Self.run(["--help"])
        #expect(run.status == 0)
        #expect(run.output.contains(#"rk-chat --demo --message "What time is it?" --approve all"#))
    }

    @Test func withoutABackendItSaysHowToGetOne() throws {
        let run = try Self.run(["-m", "hi"])
        #expect(run.status == 2)
        #expect(run.output.contains("pass --demo"))
    }
}
