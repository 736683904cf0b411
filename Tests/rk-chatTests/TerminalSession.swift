import Foundation
import Glibc
import ResolveKitChildProcess
import Synchronization

/// `rk-chat` in a pseudo-terminal (through `script`), typed at as a person would; what it prints is collected as
/// it comes.
final class TerminalSession: Sendable {
    let process: ChildProcess
    private let input = Pipe()
    private let text = Mutex("")

    init(_ arguments: String) throws {
        let output = Pipe()
        var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("RESOLVEKIT_") }
        environment["TERM"] = "xterm"
        environment["COLUMNS"] = "120"
        let command = "'\(ChatBinaryTests.binary.path)' \(arguments)"
        process = try ChildProcess.spawn(
            "/usr/bin/script", arguments: ["-qfec", command, "/dev/null"], environment: environment,
            standardInput: .pipe(input), standardOutput: .pipe(output), standardError: .pipe(output))
        let reading = output.fileHandleForReading
        Thread.detachNewThread { [self] in
            while case let data = reading.availableData, !data.isEmpty {
                self.text.withLock { $0 += String(decoding: data, as: UTF8.self) }
            }
        }
    }

    /// Everything printed so far.
    var transcript: String { text.withLock { $0 } }

    /// Types `bytes` as they are (a line needs its `\n`).
    func type(_ line: String) { input.fileHandleForWriting.write(Data(line.utf8)) }

    /// Types raw bytes, such as Ctrl-C (0x03).
    func type(bytes: [UInt8]) { input.fileHandleForWriting.write(Data(bytes)) }

    /// Whether `needle` appears, at most 20 s from now.
    func waitFor(_ needle: String, after offset: Int = 0) async -> Bool {
        let deadline = ContinuousClock.now.advanced(by: .seconds(20))
        while ContinuousClock.now < deadline, !Task.isCancelled {
            if text.withLock({ String($0.dropFirst(offset)).contains(needle) }) { return true }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return false
    }

    /// How much has been printed, to look only at what comes after.
    var offset: Int { text.withLock { $0.count } }

    /// Kills the session.
    func kill() { process.send(SIGKILL) }
}
