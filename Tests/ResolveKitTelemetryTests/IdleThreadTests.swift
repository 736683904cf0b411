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

    /// The thread lives as long as its owner: dropping the last reference ends it.
    @Test func theThreadEndsOnceItsOwnerIsGone() async throws {
        var thread: IdleThread? = IdleThread(name: "rk-test-ending")
        let id = await thread!.run { currentThreadID() }
        #expect(FileManager.default.fileExists(atPath: "/proc/self/task/\(id)"))
        thread = nil
        let deadline = ContinuousClock.now + .seconds(10)
        while FileManager.default.fileExists(atPath: "/proc/self/task/\(id)"), ContinuousClock.now < deadline {
            await Task.yield()
        }
        #expect(!FileManager.default.fileExists(atPath: "/proc/self/task/\(id)"))
    }
}

/// The calling thread's id, from `/proc/thread-self` (`<pid>/task/<tid>`); Glibc's module has no `gettid`.
private func currentThreadID() -> Int32 {
    let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/thread-self")) ?? ""
    return Int32(target.split(separator: "/").last ?? "") ?? -1
}
