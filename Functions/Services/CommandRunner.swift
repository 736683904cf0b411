import Dispatch
import Foundation
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

    /// Foundation `Process`, waited for on a Dispatch thread (never a blocked Swift concurrency thread), terminated
    /// on timeout or when the calling task is cancelled.
    static let live = CommandRunner { executable, arguments, timeout in
        let command = RunningCommand(executable: executable, arguments: arguments)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                DispatchQueue.global().async {
                    continuation.resume(with: Result { try command.runToCompletion(timeout: timeout) })
                }
            }
        } onCancel: {
            command.stop()
        }
    }
}

/// A command that ran past its time limit and was terminated.
struct CommandTimedOut: Error, CustomStringConvertible {
    /// The executable that was run.
    var executable: String
    /// The limit it exceeded.
    var timeout: Duration
    var description: String { "\(executable) did not finish within \(timeout) and was terminated" }
}

/// One run of a `Process`.
///
/// Invariant that makes the unchecked `Sendable` sound: `process` and the pipes are configured in `init` and
/// started and awaited only inside `runToCompletion`, on one thread; other threads only call `stop()`, which
/// reads the state under `state`'s lock and sends a signal, which `Process` allows from any thread.
private final class RunningCommand: @unchecked Sendable {
    private let process = Process()
    private let output = Pipe()
    private let errors = Pipe()
    private let errorText = Mutex("")
    private let state = Mutex<(started: Bool, stopped: Bool, finished: Bool)>((false, false, false))

    init(executable: String, arguments: [String]) {
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = ["LC_ALL": "C", "PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "SYSTEMD_PAGER": "cat"]
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
    }

    func runToCompletion(timeout: Duration) throws -> CommandOutput {
        let cancelledEarly = state.withLock { state in
            state.started = true
            return state.stopped
        }
        if cancelledEarly { throw CancellationError() }
        try process.run()
        let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { self.stop() }
        // Read standard error on another thread so neither pipe can fill up and block the command.
        let group = DispatchGroup()
        DispatchQueue.global().async(group: group) {
            let data = self.errors.fileHandleForReading.readDataToEndOfFile()
            self.errorText.withLock { $0 = String(decoding: data, as: UTF8.self) }
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        let stopped = state.withLock { state in
            state.finished = true
            return state.stopped
        }
        if stopped {
            throw CommandTimedOut(executable: process.executableURL?.path ?? "command", timeout: timeout)
        }
        return CommandOutput(
            status: process.terminationStatus, standardOutput: String(decoding: data, as: UTF8.self),
            standardError: errorText.withLock { $0 })
    }

    /// Terminates the command if it is still running; a no-op once it has been reaped.
    func stop() {
        state.withLock { state in
            guard !state.finished else { return }
            if !state.started {
                state.stopped = true
            } else if process.isRunning {
                state.stopped = true
                process.terminate()
            }
        }
    }
}
