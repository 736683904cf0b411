import Dispatch
import Foundation
import Glibc
import Synchronization

/// What a finished command produced.
struct CommandOutput: Sendable, Hashable {
    /// The exit status (or the terminating signal's number).
    var status: Int32
    /// Standard output as text.
    var standardOutput: String
    /// Standard error as text.
    var standardError: String
}

/// Runs an executable with an argument vector (no shell), or pretends to in tests.
struct CommandRunner: Sendable {
    /// Runs `executable` with `arguments`, terminating it after `timeout`.
    var run: @Sendable (_ executable: String, _ arguments: [String], _ timeout: Duration) async throws -> CommandOutput

    /// Foundation `Process`, waited for on threads of its own (never a blocked Swift concurrency or Dispatch
    /// worker thread), terminated when `timeout` passes or the calling task is cancelled.
    static let live = CommandRunner { executable, arguments, timeout in
        let command = RunningCommand(executable: executable, arguments: arguments)
        return try await withThrowingTaskGroup(of: CommandOutput?.self) { group in
            group.addTask {
                try await withCheckedThrowingContinuation { continuation in
                    Thread.detachNewThread { continuation.resume(with: Result { try command.runToCompletion() }) }
                }
            }
            group.addTask {
                // Ends early when the process finishes (the group is cancelled) or the caller is cancelled;
                // `stop(after:)` is a no-op once the process has been reaped.
                try? await Task.sleep(for: timeout)
                command.stop(after: timeout)
                return nil
            }
            while let next = try await group.next() {
                if let output = next {
                    group.cancelAll()
                    return output
                }
            }
            throw CancellationError()
        }
    }
}

/// A command that was terminated before it finished: it ran past its time limit or its caller was cancelled.
struct CommandStopped: Error, CustomStringConvertible {
    /// The executable that was run.
    var executable: String
    /// The time limit it had.
    var timeout: Duration
    var description: String {
        "\(executable) did not finish within \(timeout) (or the call was cancelled) and was terminated"
    }
}

/// One run of a `Process`.
///
/// Invariant that makes the unchecked `Sendable` sound: `process` and the pipes are configured in `init` and
/// started and awaited only inside `runToCompletion`, on one thread; other threads only call `stop(after:)`, which
/// reads the state under `state`'s lock and sends a signal, which `Process` allows from any thread.
private final class RunningCommand: @unchecked Sendable {
    private let process = Process()
    private let output = Pipe()
    private let errors = Pipe()
    private let errorText = Mutex("")
    private let state = Mutex<(started: Bool, stoppedAfter: Duration?, finished: Bool)>((false, nil, false))

    init(executable: String, arguments: [String]) {
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = ["LC_ALL": "C", "PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "SYSTEMD_PAGER": "cat"]
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
    }

    func runToCompletion() throws -> CommandOutput {
        let stoppedEarly = state.withLock { state in
            state.started = true
            return state.stoppedAfter
        }
        if let timeout = stoppedEarly {
            throw CommandStopped(executable: process.executableURL?.path ?? "command", timeout: timeout)
        }
        try spawnWithNoSignalBlocked()
        // Read standard error on another thread so neither pipe can fill up and block the command.
        let group = DispatchGroup()
        group.enter()
        Thread.detachNewThread {
            let data = self.errors.fileHandleForReading.readDataToEndOfFile()
            self.errorText.withLock { $0 = String(decoding: data, as: UTF8.self) }
            group.leave()
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        let stopped = state.withLock { state in
            state.finished = true
            return state.stoppedAfter
        }
        if let timeout = stopped {
            throw CommandStopped(executable: process.executableURL?.path ?? "command", timeout: timeout)
        }
        return CommandOutput(
            status: process.terminationStatus, standardOutput: String(decoding: data, as: UTF8.self),
            standardError: errorText.withLock { $0 })
    }

    /// Starts the process from this thread with an empty signal mask. Dispatch and Foundation threads block most
    /// signals and a spawned child inherits the mask, so without this `terminate()`'s SIGTERM would never arrive.
    private func spawnWithNoSignalBlocked() throws {
        var empty = sigset_t()
        var previous = sigset_t()
        sigemptyset(&empty)
        pthread_sigmask(SIG_SETMASK, &empty, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        try process.run()
    }

    /// Terminates the command if it is still running; a no-op once it has been reaped.
    func stop(after timeout: Duration) {
        state.withLock { state in
            guard !state.finished else { return }
            if !state.started {
                state.stoppedAfter = timeout
            } else if process.isRunning {
                state.stoppedAfter = timeout
                process.terminate()
            }
        }
    }
}
