import Foundation
import ResolveKitChildProcess
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

    /// A child process (``ChildProcess``, never Foundation's `Process`, which can crash a process holding many
    /// descriptors), waited for on threads of its own (never a blocked Swift concurrency or Dispatch worker
    /// thread), terminated when `timeout` passes or the calling task is cancelled.
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
                // `stop(after:)` is a no-op once the process has ended.
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

/// One run of a command: started and awaited by `runToCompletion` on one thread; `stop(after:)` may come from any
/// thread, before the start (the command then never starts, or is terminated as it starts) or while it runs.
private final class RunningCommand: Sendable {
    private let executable: String
    private let arguments: [String]
    private let state = Mutex<(child: ChildProcess?, stoppedAfter: Duration?)>((nil, nil))

    init(executable: String, arguments: [String]) {
        self.executable = executable
        self.arguments = arguments
    }

    func runToCompletion() throws -> CommandOutput {
        if let timeout = state.withLock({ $0.stoppedAfter }) {
            throw CommandStopped(executable: executable, timeout: timeout)
        }
        let output = try ChildProcess.run(
            executable, arguments: arguments,
            environment: ["LC_ALL": "C", "PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "SYSTEMD_PAGER": "cat"]
        ) { child in
            state.withLock { state in
                state.child = child
                // Stopped between the check above and the start.
                if state.stoppedAfter != nil { child.terminate() }
            }
        }
        if let timeout = state.withLock({ $0.stoppedAfter }) {
            throw CommandStopped(executable: executable, timeout: timeout)
        }
        return CommandOutput(
            status: output.termination.status, standardOutput: output.standardOutput,
            standardError: output.standardError)
    }

    /// Terminates the command if it is still running; a no-op once it has ended.
    func stop(after timeout: Duration) {
        state.withLock { state in
            guard state.child?.isRunning ?? true else { return }
            state.stoppedAfter = timeout
            state.child?.terminate()
        }
    }
}
