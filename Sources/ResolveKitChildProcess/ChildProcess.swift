package import Foundation
import Glibc
import Synchronization

/// A program started with `vfork` and `execve` (``SpawnRequest``), for every child process of this package instead of
/// Foundation's `Process`.
///
/// `Process.run()` of swift-corelibs-foundation (Swift 6.3 and earlier) copies the whole 256-byte name of each
/// `/proc/self/fd` entry while it looks for the highest open descriptor. With more than about 1,350 descriptors
/// open, glibc's directory buffer is full, the last entry sits at its end, and the copy can read into an unmapped
/// page: the whole process dies of SIGSEGV. A host holding a thousand sessions holds that many sockets. The child
/// here marks its descriptors close-on-exec itself (`close_range`), and nothing reads the directory.
///
/// The child starts in a process group of its own, with an empty signal mask and default signal actions: the
/// parent's threads block or ignore signals the child must receive. A thread of its own waits for it. It is sent
/// SIGTERM when this process ends, however it ends (see ``SpawnRequest``).
package final class ChildProcess: Sendable {
    /// Where one of the child's standard streams goes.
    package enum Stream: Sendable {
        /// The parent's own stream.
        case inherit
        /// `/dev/null`.
        case nullDevice
        /// One end of the pipe: its read end for standard input, its write end for the outputs. The parent closes
        /// that end once the child has it, so reading the other end meets its end when the child closes its own.
        case pipe(Pipe)
        /// The handle's descriptor; the parent keeps it open.
        case fileHandle(FileHandle)
    }

    private struct State {
        var termination: Termination?
    }

    /// The child's process id.
    package let pid: pid_t
    private let state = Mutex(State())
    /// Left once the child has ended and been reaped.
    private let ended = DispatchGroup()

    private init(pid: pid_t) {
        self.pid = pid
    }

    /// Starts `executable` (a path; no search of `PATH`) with `arguments`, and with `environment` (`nil`: this
    /// process's) in `currentDirectory` (`nil`: this process's).
    package static func spawn(
        _ executable: String, arguments: [String] = [], environment: [String: String]? = nil,
        currentDirectory: String? = nil, standardInput: Stream = .inherit, standardOutput: Stream = .inherit,
        standardError: Stream = .inherit
    ) throws(ChildProcessError) -> ChildProcess {
        let streams = [standardInput, standardOutput, standardError]
        let request = SpawnRequest(
            executable: executable, arguments: arguments,
            environment: environment ?? ProcessInfo.processInfo.environment, currentDirectory: currentDirectory,
            streams: streams)
        let pid = try retryingBusyText { () throws(ChildProcessError) in try SpawningThreads.shared.spawn(request) }
        for (descriptor, stream) in streams.enumerated() {
            guard case .pipe(let pipe) = stream else { continue }
            // Closing a handle twice (one pipe for both outputs) is refused by FileHandle, not done twice.
            try? (descriptor == 0 ? pipe.fileHandleForReading : pipe.fileHandleForWriting).close()
        }
        let child = ChildProcess(pid: pid)
        child.ended.enter()
        Thread.detachNewThread { child.reap() }
        return child
    }

    /// Whether the child has not ended yet.
    package var isRunning: Bool { state.withLock { $0.termination == nil } }

    /// How the child ended; `nil` while it runs.
    package var termination: Termination? { state.withLock { $0.termination } }

    /// Sends `signal` to the child's process group (the child and what it started and left in its group: a shell's
    /// commands, a server's workers), unless the child has ended (its pid may belong to another process by then).
    /// Signalled alone, the child would leave its own children running, and holding the output pipes that `run`
    /// reads to their end.
    package func send(_ signal: Int32) {
        state.withLock { state in
            if state.termination == nil { _ = kill(-pid, signal) }
        }
    }

    /// Sends `SIGTERM` (to the process group, as ``send(_:)``).
    package func terminate() { send(SIGTERM) }

    /// Sends `SIGINT` (to the process group, as ``send(_:)``).
    package func interrupt() { send(SIGINT) }

    /// Blocks the calling thread until the child ends. For threads of their own, or after ``terminate()``; a task
    /// that must not block polls ``isRunning``.
    @discardableResult
    package func waitUntilExit() -> Termination {
        ended.wait()
        return termination!
    }

    /// Blocks the calling thread until the child ends or `timeout` passes; `nil` if it still runs.
    package func waitUntilExit(timeout: Duration) -> Termination? {
        let nanoseconds = timeout.components.seconds * 1_000_000_000 + timeout.components.attoseconds / 1_000_000_000
        guard ended.wait(timeout: .now() + .nanoseconds(Int(nanoseconds))) == .success else { return nil }
        return termination
    }

    /// Waits for the child on this thread. It first waits without reaping, then reaps under the lock, so that
    /// ``send(_:)``, which checks the state under the same lock, never signals a pid the system gave to another
    /// process.
    private func reap() {
        var info = siginfo_t()
        while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) != 0, errno == EINTR {}
        state.withLock { state in
            var status: Int32 = 0
            var reaped: pid_t
            repeat { reaped = waitpid(pid, &status, 0) } while reaped == -1 && errno == EINTR
            // -1: something else in this process reaped the child first, and its status is lost.
            state.termination = reaped == pid ? Termination(waitStatus: status) : Termination(reason: .exit, status: -1)
        }
        ended.leave()
    }
}
