import Foundation
import Glibc
import Synchronization
import Testing

@testable import ResolveKitChildProcess

/// A program `execve` finds busy (`ETXTBSY`) is started again after a short wait, and any other failure is not.
@Suite(.timeLimit(.minutes(1)))
struct BusyTextTests {
    static func failure(_ errno: Int32) -> ChildProcessError {
        ChildProcessError(code: .spawnFailed, executable: "/tmp/x", errno: errno)
    }

    @Test func aBusyProgramIsTriedAgainAfterEachDelayUntilItStarts() throws {
        let slept = Mutex<[Duration]>([])
        let attempts = Mutex(0)
        let pid = try ChildProcess.retryingBusyText(sleep: { delay in slept.withLock { $0.append(delay) } }) {
            () throws(ChildProcessError) -> pid_t in
            let attempt = attempts.withLock { count in
                count += 1
                return count
            }
            if attempt < 3 { throw Self.failure(ETXTBSY) }
            return 42
        }
        #expect(pid == 42)
        #expect(slept.withLock { $0 } == [.milliseconds(1), .milliseconds(2)])
    }

    @Test func anyOtherFailureIsThrownAtOnce() {
        let attempts = Mutex(0)
        #expect {
            try ChildProcess.retryingBusyText(sleep: { _ in Issue.record("slept") }) {
                () throws(ChildProcessError) -> pid_t in
                attempts.withLock { $0 += 1 }
                throw Self.failure(ENOENT)
            }
        } throws: { ($0 as? ChildProcessError)?.errno == ENOENT }
        #expect(attempts.withLock { $0 } == 1)
    }

    @Test func aProgramStillBusyAfterTheLastDelayIsRefusedWithItsErrno() {
        let slept = Mutex<[Duration]>([])
        #expect {
            try ChildProcess.retryingBusyText(sleep: { delay in slept.withLock { $0.append(delay) } }) {
                () throws(ChildProcessError) -> pid_t in
                throw Self.failure(ETXTBSY)
            }
        } throws: { ($0 as? ChildProcessError)?.errno == ETXTBSY }
        #expect(slept.withLock { $0 } == ChildProcess.busyTextDelays)
        #expect(ChildProcess.busyTextDelays.reduce(.zero, +) == .milliseconds(255))
    }

    /// The real refusal: the program is open for writing when the first attempt runs, and closed during the wait.
    @Test func aProgramClosedDuringTheWaitStarts() throws {
        let path = FileManager.default.temporaryDirectory.path + "/rk-busy-text-\(getpid())"
        let writer = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o755)
        try #require(writer >= 0)
        defer { unlink(path) }
        let script = Array("#!/bin/sh\nexit 7\n".utf8)
        #expect(write(writer, script, script.count) == script.count)
        let writerOpen = Mutex(true)
        let request = SpawnRequest(
            executable: path, arguments: [], environment: [:], currentDirectory: nil,
            streams: [.nullDevice, .nullDevice, .nullDevice])
        let pid = try ChildProcess.retryingBusyText(sleep: { _ in
            writerOpen.withLock { isOpen in
                if isOpen { close(writer) }
                isOpen = false
            }
        }) { () throws(ChildProcessError) in try SpawningThreads.shared.spawn(request) }
        #expect(!writerOpen.withLock { $0 }, "the first attempt was not refused")
        var status: Int32 = 0
        #expect(waitpid(pid, &status, 0) == pid)
        #expect(status >> 8 == 7)
    }
}
