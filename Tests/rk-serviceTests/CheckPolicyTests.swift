import Foundation
import ResolveKitChildProcess
import Testing

/// `--check-policy` in the built `rk-service` and `rk-chat`, and the README's policy, which is the sample's.
@Suite(.timeLimit(.minutes(1)))
struct CheckPolicyTests {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Runs a built tool to its end: its exit status, and all it wrote to stdout and stderr.
    static func run(_ tool: String, _ arguments: [String]) async throws -> (
        status: Int32, stdout: String, stderr: String
    ) {
        try await offThePool {
            let output = try ChildProcess.run(
                ServiceProcess.built(tool).path, arguments: arguments, environment: ServiceProcess.cleanEnvironment)
            return (output.termination.status, output.standardOutput, output.standardError)
        }
    }

    /// The Linux pack's function names, as an unknown-function error lists them.
    static let packFunctions =
        "get_disk_usage, get_host_status, get_local_time, get_service_status, "
        + "list_directory, list_top_processes, read_log_tail"

    static func write(_ text: String) throws -> String {
        let path = "/tmp/rk-policy-\(UUID().uuidString.prefix(8)).json"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    static let broken = """
        {
          "default": "ask",
          "functions": {
            "read_log_tails": "allow",
            "read_log_tail": { "rules": [
              { "then": "allow" },
              { "if": { "$.path": { "prefix": "/var/log" } }, "then": "deny" },
              { "if": { "$.lines": { "range": { "min": 10, "max": 1 } } }, "then": "deny" }
            ] }
          }
        }
        """

    @Test(arguments: ["rk-service", "rk-chat"])
    func errorsAreListedAtTheirPositionAndExit1(tool: String) async throws {
        let path = try Self.write(Self.broken)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try await Self.run(tool, ["--check-policy", path])
        #expect(result.status == 1)
        #expect(result.stderr.contains("\(path):4:5: error: unknown function read_log_tails"))
        #expect(result.stderr.contains("\(path):8:39: error: the range's min 10 is above its max 1"))
        #expect(result.stderr.contains("\(path):7:7: warning: this rule can never match: read_log_tail rule 1"))
        #expect(result.stdout.contains("\(path): 2 errors, 1 warning"))
    }

    @Test(arguments: ["rk-service", "rk-chat"])
    func warningsAloneArePrintedAndExit0(tool: String) async throws {
        let path = try Self.write(
            #"""
            {"functions": {"read_log_tail": {"rules": [
              {"then": "ask"},
              {"if": {"$.lines": {"range": {"max": 5}}}, "then": "allow"}
            ]}}}
            """#)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try await Self.run(tool, ["--check-policy", path])
        #expect(result.status == 0)
        #expect(
            result.stderr
                == "\(path):3:3: warning: this rule can never match: read_log_tail rule 1 matches every call it would\n"
        )
        #expect(result.stdout == "\(path): OK, 1 warning\n")
    }

    @Test(arguments: ["rk-service", "rk-chat"])
    func aMissingFileIsAUsageError(tool: String) async throws {
        let result = try await Self.run(tool, ["--check-policy", "/nonexistent/policy.json"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("--check-policy: The policy file /nonexistent/policy.json does not exist"))
    }

    @Test func theREADMEsPolicyIsTheSampleAndChecksClean() async throws {
        let readme = try String(contentsOf: Self.packageRoot.appending(path: "README.md"), encoding: .utf8)
        let marker = try #require(readme.range(of: "This is `Samples/rk-service/policy.json`:"))
        let after = readme[marker.upperBound...]
        let start = try #require(after.range(of: "```json\n"))
        let end = try #require(after[start.upperBound...].range(of: "```"))
        let block = String(after[start.upperBound..<end.lowerBound])
        let sample = try String(
            contentsOf: Self.packageRoot.appending(path: "Samples/rk-service/policy.json"), encoding: .utf8)
        #expect(block == sample)
        let path = try Self.write(block)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try await Self.run("rk-service", ["--check-policy", path])
        #expect(result.status == 0)
        #expect(result.stdout.contains("\(path): OK"))
        #expect(result.stderr.isEmpty, "\(result.stderr)")
    }

    @Test func aServiceStartedWithABadPolicyNamesThePosition() async throws {
        let path = try Self.write(#"{"functions": {"rm_rf": "allow"}}"#)
        defer { try? FileManager.default.removeItem(atPath: path) }
        var environment = ServiceProcess.cleanEnvironment
        environment["RESOLVEKIT_API_KEY"] = "rk_x"
        let process = try ServiceProcess(
            ["--base-url", "http://127.0.0.1:9", "--policy", path], environment: environment)
        process.closeInput()
        #expect(await process.exitStatus() == 64)
        #expect(process.stderr.contains("\(path):1:16: error: unknown function rm_rf"))
    }

    @Test func rkChatWithABadPolicyNamesThePositionBeforeStartingAnything() async throws {
        let path = try Self.write(#"{"functions": {"rm_rf": "allow", "read_log_tail": "sometimes"}}"#)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try await Self.run("rk-chat", ["--demo", "-m", "hi", "--approve", path])
        #expect(result.status == 64)
        #expect(
            result.stderr == """
                rk-chat: error: --approve: Invalid approval policy:
                \(path):1:16: error: unknown function rm_rf; the functions are \(Self.packFunctions)
                \(path):1:51: error: functions.read_log_tail must be "allow", "deny" or "ask"
                See rk-chat --help.

                """)
        #expect(result.stdout.isEmpty, "\(result.stdout)")
    }
}
