import Foundation
import ResolveKitChildProcess
import Testing

/// Runs the built `rk-chat` binary as a user or a script would. Two minutes each: one test waits out rk-chat's real
/// 30 s connect budget, which took 40 s beside a loaded machine.
@Suite(.timeLimit(.minutes(2)))
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

    /// Runs `arguments` with standard output and standard error apart.
    static func runApart(
        _ arguments: [String], environment: [String: String] = [:]
    ) async throws -> (status: Int32, stdout: String, stderr: String) {
        try await offThePool {
            let output = try ChildProcess.run(
                binary.path, arguments: arguments,
                environment: ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("RESOLVEKIT_") }
                    .merging(environment) { $1 })
            return (output.termination.status, output.standardOutput, output.standardError)
        }
    }

    static func run(_ arguments: [String]) async throws -> Run {
        // On a thread of its own: the wait would hold a cooperative thread, which every task of the tests shares.
        try await offThePool {
            let output = Pipe()
            let process = try ChildProcess.spawn(
                binary.path, arguments: arguments,
                environment: ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("RESOLVEKIT_") },
                standardInput: .nullDevice, standardOutput: .pipe(output), standardError: .pipe(output))
            let data = output.fileHandleForReading.readDataToEndOfFile()
            return Run(status: process.waitUntilExit().status, output: String(decoding: data, as: UTF8.self))
        }
    }

    @Test func oneShotDemoPrintsTheToolResultAndTheAnswer() async throws {
        let run = try await Self.run(["--demo", "--message", "What time is it?", "--approve", "all"])
        #expect(run.status == 0, "\(run.output)")
        #expect(run.output.contains("you › What time is it?"))
        #expect(run.output.contains("tool get_local_time: completed → {"))
        #expect(run.output.contains(#"agent › Done. The get_local_time returned"#))
    }

    @Test func declinedCallsAreReportedAsDeclined() async throws {
        let run = try await Self.run(["--demo", "--message", "show me the log", "--approve", "none"])
        #expect(run.status == 0, "\(run.output)")
        #expect(run.output.contains("tool read_log_tail: declined: User denied action"))
        // Without a terminal and without --approve, nobody declined: the reason says why no one approved.
        let unasked = try await Self.run(["--demo", "--message", "show me the log"])
        #expect(unasked.output.contains("declined: No one could approve it: rk-chat has no terminal to ask"))
    }

    @Test func aPolicyFileDecidesWithoutATerminal() async throws {
        let policy = FileManager.default.temporaryDirectory.appending(path: "rk-chat-policy-\(UUID().uuidString).json")
        try Data(#"{"default": "deny", "functions": {"read_log_tail": "allow"}}"#.utf8).write(to: policy)
        defer { try? FileManager.default.removeItem(at: policy) }
        let run = try await Self.run(["--demo", "-m", "show me the log", "--approve", policy.path])
        #expect(run.status == 0, "\(run.output)")
        #expect(run.output.contains("tool read_log_tail: completed"))
    }

    @Test func traceWireWritesFramesAndExchangesAsJSONLinesWithoutSecrets() async throws {
        let trace = FileManager.default.temporaryDirectory.appending(path: "rk-chat-wire-\(UUID().uuidString).jsonl")
        defer { try? FileManager.default.removeItem(at: trace) }
        let run = try await Self.run([
            "--demo", "-m", "What time is it?", "--approve", "all", "--trace-wire", trace.path,
        ])
        #expect(run.status == 0, "\(run.output)")
        let text = try String(contentsOf: trace, encoding: .utf8)
        let lines = text.split(separator: "\n").map {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        #expect(!lines.isEmpty && lines.allSatisfy { $0 != nil }, "every line is a JSON object")
        #expect(lines.contains { $0?["type"] as? String == "turn_complete" })
        #expect(
            lines.contains {
                $0?["method"] as? String == "POST" && ($0?["url"] as? String)?.hasSuffix("/messages") == true
            })
        #expect(!text.contains("rk_demo"), "the API key is masked")
        #expect(!text.contains("eyJ"), "capability tokens are masked")
    }

    static let usageErrors: [([String], String)] = [
        (["--bogus"], "unknown option '--bogus'"),
        (["--demo", "--base-url", "http://x"], "--demo runs its own backend"),
        (["--message"], "--message needs a value"),
        (["--api-key", "rk_1"], "--api-key would show the key"),
        (
            ["--demo", "-m", "hi", "--approve", "sometimes"],
            "--approve expects all, none, prompt or a readable file, got 'sometimes'"
        ),
        (
            ["--demo", "-m", "hi", "--approve", "/nope/policy.json"],
            "--approve expects all, none, prompt or a readable file, got '/nope/policy.json'"
        ),
        (["--base-url", "http://127.0.0.1:9", "--api-key-file", "/nope"], "--api-key-file /nope does not exist"),
        (["--base-url", "not a url", "-m", "hi"], "--base-url 'not a url' is not an http:// or https:// URL"),
        (["--demo", "-m", "hi", "--allowed-root", "/nope/dir"], "--allowed-root /nope/dir is not an existing folder"),
        (["--demo", "-m", ""], "--message needs a text of 1 to 32768 bytes, got 0"),
        (
            ["--demo", "-m", "hi", "--audit-log", "/nope/dir/audit.jsonl"],
            "--audit-log /nope/dir/audit.jsonl: the folder /nope/dir does not exist"
        ),
    ]

    @Test(arguments: usageErrors)
    func usageErrorsNameTheFlagAndExitWith64(arguments: [String], message: String) async throws {
        let run = try await Self.run(arguments)
        #expect(run.status == 64, "\(run.output)")
        #expect(run.output.hasPrefix("rk-chat: error: " + message), "\(run.output)")
        #expect(run.output.contains("See rk-chat --help."))
        #expect(!run.output.contains("NSCocoaErrorDomain"))
    }

    @Test func versionPrintsThePackageVersion() async throws {
        let run = try await Self.run(["--version"])
        #expect(run.status == 0)
        #expect(run.output.hasPrefix("rk-chat 1."))
    }

    @Test func anUnreachableBackendEndsTheOneShotWithExit3AndTheCause() async throws {
        let key = FileManager.default.temporaryDirectory.appending(path: "rk-chat-key-\(UUID().uuidString)")
        try Data("rk_dev\n".utf8).write(to: key)
        defer { try? FileManager.default.removeItem(at: key) }
        let state = FileManager.default.temporaryDirectory.appending(path: "rk-chat-state-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: state) }
        // Port 9 on loopback refuses connections: the runtime gives up after its 30 s connect budget.
        let run = try await Self.run(
            ["--base-url", "http://127.0.0.1:9", "--api-key-file", key.path, "--state-dir", state.path, "-m", "hi"])
        #expect(run.status == 3, "\(run.output)")
        #expect(run.output.contains("No connection to http://127.0.0.1:9 within 30"))
        #expect(run.output.contains("Couldn't connect to server"))
    }

    /// A script reads the transcript on standard output: why there is none goes to standard error.
    @Test func aFailureIsReportedOnStandardErrorOnly() async throws {
        let key = FileManager.default.temporaryDirectory.appending(path: "rk-chat-key-\(UUID().uuidString)")
        try Data("rk_dev\n".utf8).write(to: key)
        defer { try? FileManager.default.removeItem(at: key) }
        let run = try await Self.runApart(
            ["--base-url", "http://rk-no-such-host.invalid", "--api-key-file", key.path, "-m", "hi"])
        #expect(run.status == 3, "\(run.stderr)")
        #expect(run.stdout.isEmpty, "\(run.stdout)")
        #expect(run.stderr.contains("rk-chat: could not connect"))
        #expect(run.stderr.contains("no terminal to ask for approval"))
    }

    /// The demo's backend is in the process, on loopback: a proxy the environment names is not used for it.
    @Test func theDemoAnswersWithAProxyInTheEnvironment() async throws {
        let run = try await Self.runApart(
            ["--demo", "-m", "What time is it?", "--approve", "all"],
            environment: ["http_proxy": "http://127.0.0.1:9", "HTTPS_PROXY": "http://127.0.0.1:9"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("get_local_time completed"))
    }

    @Test func helpShowsARealExample() async throws {
        let run = try await Self.run(["--help"])
        #expect(run.status == 0)
        #expect(run.output.contains(#"rk-chat --demo --message "What time is it?" --approve all"#))
        #expect(run.output.contains("NETWORK OPTIONS:\n  --ca-file FILE"))
        #expect(run.output.contains("3    could not connect, or the network failed the turn"))
    }

    @Test func withoutABackendItSaysHowToGetOne() async throws {
        let run = try await Self.run(["-m", "hi"])
        #expect(run.status == 64)
        #expect(run.output.contains("pass --demo"))
    }
}

extension ChatBinaryTests {
    @Test func oneShotStreamsTheCallsAsTheyRunAndSaysWhyApprovalIsImpossible() async throws {
        let run = try await Self.run(["--demo", "--message", "how much disk space is free?"])
        #expect(run.status == 0, "\(run.output)")
        #expect(run.output.contains("no terminal to ask for approval"))
        #expect(run.output.contains("· running get_disk_usage…"))
        #expect(run.output.contains("· get_disk_usage completed in "))
        #expect(run.output.contains("used percent"))
        #expect(!run.output.contains("agent › Done. The get_disk_usage returned \"{"))
    }
}

/// Every example question of the README's quick start, asked as the README says, calls its function.
struct ReadmeQuestionTests {
    @Test(arguments: [
        ("what time is it?", "get_local_time"),
        ("how much disk space is free?", "get_disk_usage"),
        ("how busy is this machine?", "get_host_status"),
        ("show me the log", "read_log_tail"),
        ("list the files in this folder", "list_directory"),
    ])
    func theQuestionCallsItsFunction(question: String, function: String) async throws {
        let run = try await ChatBinaryTests.run(["--demo", "--message", question, "--approve", "all"])
        #expect(run.status == 0, "\(run.output)")
        #expect(run.output.contains("· \(function) completed"), "\(run.output)")
        #expect(!run.output.contains("returned \"{"), "an answer dumped JSON: \(run.output)")
    }
}

extension ChatBinaryTests {
    @Test func oneShotPrintsOnlyTheNewTurnUnlessAskedForTheHistory() async throws {
        let plain = try await Self.run(["--demo", "--message", "What time is it?", "--approve", "all"])
        let withHistory = try await Self.run([
            "--demo", "--message", "What time is it?", "--approve", "all", "--history",
        ])
        #expect(plain.status == 0 && withHistory.status == 0)
        let greeting = "agent › Hello! How can I help you today?"
        #expect(!plain.output.contains(greeting))
        #expect(withHistory.output.contains(greeting))
    }
}
