import Foundation
import Synchronization

extension ChildProcess {
    /// What a child that ran to its end wrote, and how it ended.
    package struct Output: Sendable {
        /// How it ended.
        package var termination: Termination
        /// Its standard output, as text.
        package var standardOutput: String
        /// Its standard error, as text.
        package var standardError: String
    }

    /// Runs `executable` to its end with both outputs on pipes and returns what it wrote. Standard error is read on
    /// a thread of its own, so neither pipe can fill up and block the child. Blocks the calling thread: call it from
    /// a thread of its own, not from a task. `started` gets the child as soon as it runs, to stop it from elsewhere.
    package static func run(
        _ executable: String, arguments: [String] = [], environment: [String: String]? = nil,
        currentDirectory: String? = nil, standardInput: Stream = .nullDevice,
        started: (ChildProcess) -> Void = { _ in }
    ) throws(ChildProcessError) -> Output {
        let output = Pipe()
        let errors = Pipe()
        let child = try spawn(
            executable, arguments: arguments, environment: environment, currentDirectory: currentDirectory,
            standardInput: standardInput, standardOutput: .pipe(output), standardError: .pipe(errors))
        started(child)
        let errorText = Mutex("")
        let errorsRead = DispatchGroup()
        errorsRead.enter()
        Thread.detachNewThread {
            let data = errors.fileHandleForReading.readDataToEndOfFile()
            errorText.withLock { $0 = String(decoding: data, as: UTF8.self) }
            errorsRead.leave()
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        errorsRead.wait()
        return Output(
            termination: child.waitUntilExit(), standardOutput: String(decoding: data, as: UTF8.self),
            standardError: errorText.withLock { $0 })
    }
}
