import Foundation
import Glibc
import Synchronization
import Testing

@testable import ResolveKitCore

/// The package's own threads: named for operators, and at the kernel's idle priority when asked.
struct SystemThreadTests {
    /// What a thread saw of itself: its name and its scheduling policy.
    private static func look() -> (name: String, policy: Int32) {
        let name = (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? ""
        return (name.trimmingCharacters(in: .newlines), sched_getscheduler(0))
    }

    @Test func aThreadRunsItsBodyUnderItsNameAndIsJoined() throws {
        let seen = Mutex<(name: String, policy: Int32)?>(nil)
        let thread = try SystemThread(name: "rk-test-normal") { seen.withLock { $0 = Self.look() } }
        thread.join()
        #expect(seen.withLock { $0?.name } == "rk-test-normal")
        #expect(seen.withLock { $0?.policy } == SCHED_OTHER)
    }

    /// `SCHED_IDLE` is 5; Linux keeps the first 15 bytes of a name.
    @Test func anIdleThreadRunsAtTheIdlePolicy() throws {
        let seen = Mutex<(name: String, policy: Int32)?>(nil)
        let thread = try SystemThread(name: "rk-test-idle-priority", priority: .idle) {
            seen.withLock { $0 = Self.look() }
        }
        thread.join()
        #expect(seen.withLock { $0?.name } == "rk-test-idle-pr")
        #expect(seen.withLock { $0?.policy } == 5)
    }

    @Test func aDetachedThreadRunsItsBody() async throws {
        let name = try await withCheckedThrowingContinuation { continuation in
            do {
                try SystemThread.detached(name: "rk-test-detach") { continuation.resume(returning: Self.look().name) }
            } catch {
                continuation.resume(throwing: error)
            }
        }
        #expect(name == "rk-test-detach")
    }
}
