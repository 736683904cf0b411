import Foundation
import Testing

/// `rk-approve`'s command line: every mistake is one line naming the flag, then a pointer to --help, exit 64.
@Suite(.timeLimit(.minutes(1)))
struct ApproveCommandLineTests {
    @Test func versionPrintsThePackageVersion() async throws {
        let run = try await ApproveEndToEndTests.once(["--version"])
        #expect(run.status == 0)
        #expect(run.output.hasPrefix("rk-approve "))
    }

    @Test(arguments: [
        (["list"], "--socket PATH is required"),
        (["--socket"], "--socket needs a value"),
        (["--socket", "/tmp/x", "approve"], "usage: rk-approve --socket PATH approve CALL_ID..."),
        (
            ["--socket", "/tmp/x", "remember", "f", "--hours", "soon"],
            "--hours expects a number from 0 to 8784, got 'soon'"
        ),
        (["--socket", "/tmp/x", "reboot"], "unknown command 'reboot'"),
        (["--frobnicate"], "unknown option '--frobnicate'"),
    ])
    func usageErrorsNameTheMistake(arguments: [String], message: String) async throws {
        let run = try await ApproveEndToEndTests.once(arguments)
        #expect(run.status == 64)
        #expect(run.output.contains("rk-approve: error: \(message)"), "\(run.output)")
        #expect(run.output.contains("See rk-approve --help."))
    }

    @Test func aSocketNobodyListensOnIsExit69WithTheFlagAndAHint() async throws {
        let run = try await ApproveEndToEndTests.once([
            "--socket", "/tmp/rk-approve-nobody-\(UUID().uuidString.prefix(8))", "list",
        ])
        #expect(run.status == 69)
        #expect(run.output.contains("cannot connect to --socket"))
        #expect(run.output.contains("is rk-service running with --socket"))
    }

    @Test func verifyingATrailThatDoesNotExistSaysSo() async throws {
        let run = try await ApproveEndToEndTests.once(["--verify-audit", "/nonexistent/audit.jsonl"])
        #expect(run.status == 1)
        #expect(run.output.contains("the audit trail does not exist"))
    }
}
