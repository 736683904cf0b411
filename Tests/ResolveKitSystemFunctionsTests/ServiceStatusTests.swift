import Foundation
import Glibc
import ResolveKitCore
import Synchronization
import Testing

@testable import ResolveKitSystemFunctions

@Suite(.timeLimit(.minutes(1)))
struct ServiceStatusTests {
    @Test(arguments: [
        "nginx", "cron.service", "user@1000.service", "dev-sda1.device", "php8.2-fpm", "getty@tty1", "a:b", "x_y.timer",
    ])
    func acceptsUnitNames(name: String) throws {
        #expect(try UnitName.validated(name) == name)
    }

    @Test(arguments: [
        "", "-H", "--host=evil", ".hidden", "nginx; rm -rf /", "a b", "$(id)", "unit\n", "ünit", "a/b", "*",
        String(repeating: "a", count: 256),
    ])
    func refusesAnythingThatCouldBeAnOptionOrShellText(name: String) async {
        await expectFunctionError(.invalidArguments, mentioning: "unit name") { try UnitName.validated(name) }
        await expectFunctionError(.invalidArguments) {
            try await Self.function(runner: .unreachable).perform(unit: name)
        }
    }

    static let showOutput = """
        Id=nginx.service
        LoadState=loaded
        ActiveState=active
        SubState=running
        UnitFileState=enabled
        Description=A high performance web server
        MainPID=812
        ActiveEnterTimestamp=Sat 2026-11-21 09:00:01 UTC

        """

    @Test func runsSystemctlShowWithTheUnitAfterADoubleDash() async throws {
        let seen = Mutex<[String]>([])
        let runner = CommandRunner { executable, arguments, _ in
            seen.withLock { $0 = [executable] + arguments }
            return CommandOutput(status: 0, standardOutput: Self.showOutput, standardError: "")
        }
        let status = try await Self.function(runner: runner).perform(unit: "nginx")
        #expect(seen.withLock { $0 }.suffix(2) == ["--", "nginx"])
        #expect(seen.withLock { $0 }.dropFirst().first == "show")
        #expect(
            status
                == ServiceStatus(
                    unit: "nginx.service", activeState: "active", subState: "running", loadState: "loaded",
                    unitFileState: "enabled", description: "A high performance web server", mainPID: 812,
                    activeSince: "Sat 2026-11-21 09:00:01 UTC"))
    }

    @Test func reportsAMissingUnitAsAResult() throws {
        let text =
            "Id=nope.service\nLoadState=not-found\nActiveState=inactive\nSubState=dead\nMainPID=0\nUnitFileState=\n"
        let status = try #require(GetServiceStatus.parse(text, unit: "nope"))
        #expect(status.loadState == "not-found")
        #expect(status.activeState == "inactive")
        #expect(status.mainPID == nil)
        #expect(status.unitFileState == nil)
        #expect(GetServiceStatus.parse("garbage", unit: "x") == nil)
    }

    @Test func explainsAFailingSystemctl() async {
        let runner = CommandRunner { _, _, _ in
            CommandOutput(status: 1, standardOutput: "", standardError: "Failed to connect to bus: No medium found\n")
        }
        await expectFunctionError(.executionFailed, mentioning: "status 1", "Failed to connect to bus") {
            try await Self.function(runner: runner).perform(unit: "nginx")
        }
    }

    @Test func saysSoWhenSystemdIsNotRunning() async {
        let function = GetServiceStatus(
            runner: .unreachable, systemdRuntimeDirectory: "/nonexistent/run/systemd/system",
            systemctlCandidates: ["/bin/true"])
        await expectFunctionError(.executionFailed, mentioning: "systemd is not running on this host") {
            try await function.perform(unit: "nginx")
        }
    }

    @Test func reportsTheLiveHostsAnswer() async throws {
        let function = GetServiceStatus()
        if FileManager.default.fileExists(atPath: "/run/systemd/system") {
            let status = try await function.perform(unit: "systemd-journald")
            #expect(
                ["active", "inactive", "failed", "activating", "deactivating", "reloading"].contains(status.activeState)
            )
        } else {
            await expectFunctionError(.executionFailed, mentioning: "systemd is not running") {
                try await function.perform(unit: "systemd-journald")
            }
        }
    }

    /// The function with `runner`, a systemd runtime directory that exists and `/bin/true` as systemctl.
    static func function(runner: CommandRunner) -> GetServiceStatus {
        GetServiceStatus(runner: runner, systemdRuntimeDirectory: "/", systemctlCandidates: ["/bin/true"])
    }
}

extension CommandRunner {
    /// A runner that fails the test if anything tries to run a command.
    static let unreachable = CommandRunner { executable, _, _ in
        Issue.record("\(executable) should not have been run")
        return CommandOutput(status: 0, standardOutput: "", standardError: "")
    }
}

@Suite(.timeLimit(.minutes(1)))
struct CommandRunnerTests {
    @Test func capturesOutputErrorsAndStatus() async throws {
        let listed = try await CommandRunner.live.run("/bin/ls", ["/nonexistent-rk"], .seconds(10))
        #expect(listed.status == 2)
        #expect(listed.standardError.contains("nonexistent-rk"))
        let echoed = try await CommandRunner.live.run("/bin/echo", ["a; b", "$(id)"], .seconds(10))
        #expect(echoed == CommandOutput(status: 0, standardOutput: "a; b $(id)\n", standardError: ""))
    }

    @Test func startsCommandsWithNoSignalBlocked() async throws {
        let output = try await CommandRunner.live.run("/bin/grep", ["SigBlk", "/proc/self/status"], .seconds(10))
        #expect(output.standardOutput == "SigBlk:\t0000000000000000\n")
    }

    @Test func drainsOutputLargerThanAPipeBuffer() async throws {
        let output = try await CommandRunner.live.run("/usr/bin/seq", ["1", "100000"], .seconds(20))
        #expect(output.standardOutput.split(separator: "\n").count == 100_000)
    }

    @Test func terminatesACommandThatOutlivesItsTimeout() async {
        let started = ContinuousClock.now
        await #expect(throws: CommandStopped.self) {
            try await CommandRunner.live.run("/bin/sleep", ["120"], .milliseconds(200))
        }
        // Stopped by its 200 ms limit, not by `sleep`'s two minutes, with room for a 2-core machine busy with the
        // whole parallel run (where it once took 11 s).
        #expect(started.duration(to: .now) < .seconds(60))
    }
}
