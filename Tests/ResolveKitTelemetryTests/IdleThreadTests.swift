import Foundation
import Glibc
import Testing

@testable import ResolveKitTelemetry

/// Telemetry's own work (encoding a batch, posting it) runs on a thread at the kernel's idle priority.
struct IdleThreadTests {
    @Test func jobsRunInOrderOnOneThreadAtTheIdlePolicy() async {
        let thread = IdleThread(name: "rk-test-idle")
        var seen: [(index: Int, thread: Int32, policy: Int32)] = []
        for index in 0..<20 {
            seen.append(await thread.run { (index, currentThreadID(), sched_getscheduler(0)) })
        }
        #expect(seen.map(\.index) == Array(0..<20))
        #expect(Set(seen.map(\.thread)).count == 1)
        #expect(seen.first?.thread != currentThreadID())
        #expect(seen.allSatisfy { $0.policy == 5 })
    }

    /// Work someone waits for runs on a second thread at the policy and `nice` of the code that made the object,
    /// also when a task at background priority asks (its thread runs at `nice` 10, and an unprivileged process
    /// cannot make a thread faster than itself).
    @Test func urgentJobsRunOnASecondThreadAtTheMakersPriority() async {
        let thread = IdleThread(name: "rk-test-urgent")
        let makersNice = currentNice()
        let urgent = await Task.detached(priority: .background) {
            await thread.run(urgently: true) {
                (thread: currentThreadID(), policy: sched_getscheduler(0), nice: currentNice())
            }
        }.value
        let idle = await thread.run { currentThreadID() }
        #expect(urgent.policy == SCHED_OTHER)
        #expect(urgent.nice == makersNice)
        #expect(urgent.thread != idle)
        #expect(urgent.thread != currentThreadID())
    }

    /// An exported batch is let go on the idle thread: freeing it takes no core, and no lock, of the caller's.
    @Test func aDiscardedValueIsFreedOnTheIdleThread() async {
        let thread = IdleThread(name: "rk-test-discard")
        let idle = await thread.run { currentThreadID() }
        let freedOn = await withCheckedContinuation { (freed: CheckedContinuation<Int32, Never>) in
            thread.discard([FreedSignal { freed.resume(returning: currentThreadID()) }])
        }
        #expect(freedOn == idle)
    }

    /// The threads live as long as their owner: dropping the last reference ends them.
    @Test func theThreadsEndOnceTheirOwnerIsGone() async throws {
        var thread: IdleThread? = IdleThread(name: "rk-test-ending")
        let ids = [await thread!.run { currentThreadID() }, await thread!.run(urgently: true) { currentThreadID() }]
        let paths = ids.map { "/proc/self/task/\($0)" }
        #expect(paths.allSatisfy { FileManager.default.fileExists(atPath: $0) })
        thread = nil
        let deadline = ContinuousClock.now + .seconds(10)
        while paths.contains(where: { FileManager.default.fileExists(atPath: $0) }), ContinuousClock.now < deadline {
            await Task.yield()
        }
        #expect(!paths.contains { FileManager.default.fileExists(atPath: $0) })
    }
}

/// Calls `freed` when the last reference to it is gone.
private final class FreedSignal: Sendable {
    let freed: @Sendable () -> Void

    init(_ freed: @escaping @Sendable () -> Void) { self.freed = freed }

    deinit { freed() }
}

/// The calling thread's id, from `/proc/thread-self` (`<pid>/task/<tid>`); Glibc's module has no `gettid`.
private func currentThreadID() -> Int32 {
    let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/thread-self")) ?? ""
    return Int32(target.split(separator: "/").last ?? "") ?? -1
}

/// The calling thread's `nice`: field 19 of `/proc/thread-self/stat`, counted after its name's closing parenthesis.
private func currentNice() -> Int {
    let stat = (try? String(contentsOfFile: "/proc/thread-self/stat", encoding: .utf8)) ?? ""
    let fields = stat.split(separator: ")").last?.split(separator: " ") ?? []
    return fields.count > 16 ? Int(fields[16]) ?? -100 : -100
}
