import Foundation
import Glibc
import Testing

/// Nothing this package starts outlives the process that started it, shown with real processes: a probe that
/// starts a child the way every child of this package is started (a test fixture's `redis-server`, a system
/// function's command) is killed with SIGKILL, and its child ends too.
@Suite(.timeLimit(.minutes(1)))
struct ChildrenEndWithTheProcessTests {
    @Test func aChildOfAProcessKilledWithSIGKILLEndsWithIt() async throws {
        let probe = try ServiceProcess(
            ["--spawn-sleep", "300"], environment: ServiceProcess.cleanEnvironment,
            binary: ServiceProcess.built("rk-crash-probe"))
        #expect(await probe.waitFor { $0.hasPrefix("child ") }, "stderr: \(probe.stderr)")
        let line = try #require(probe.stdoutLines.first { $0.hasPrefix("child ") })
        let child = try #require(pid_t(line.dropFirst(6)))
        // The probe printed the pid once its spawn returned, so the child runs `sleep` and has asked for the signal.
        #expect(Self.runsSleep(child))
        probe.signal(SIGKILL)
        _ = await probe.exitStatus()
        let deadline = ContinuousClock.now.advanced(by: .seconds(10))
        while Self.isAlive(child), ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
        let outlived = Self.isAlive(child)
        if outlived { kill(child, SIGKILL) }
        #expect(!outlived, "the probe's child \(child) outlived it")
    }

    /// Whether `pid` runs the program `sleep` (not still the probe's own code, between `vfork` and `execve`).
    static func runsSleep(_ pid: pid_t) -> Bool {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/exe"))?.hasSuffix("/sleep") == true
    }

    /// Whether `pid` runs: it exists and is not a zombie (an orphan waits for whoever adopts it to reap it).
    static func isAlive(_ pid: pid_t) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let afterName = stat.range(of: ") ")
        else { return false }
        return stat[afterName.upperBound...].first != "Z"
    }
}
