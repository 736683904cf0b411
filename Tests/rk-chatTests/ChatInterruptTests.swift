import Foundation
import Glibc
import ResolveKitChildProcess
import Synchronization
import Testing

/// Ctrl-C at rk-chat's approval prompt declines what is pending, then leaves: a real process in a
/// pseudo-terminal (through `script`), typed at as a person would.
@Suite(.timeLimit(.minutes(1)))
struct ChatInterruptTests {
    @Test func ctrlCAtAnApprovalPromptDeclinesAndLeaves() async throws {
        let input = Pipe()
        let output = Pipe()
        var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("RESOLVEKIT_") }
        environment["TERM"] = "xterm"
        environment["COLUMNS"] = "120"
        let command = "'\(ChatBinaryTests.binary.path)' --demo"
        let process = try ChildProcess.spawn(
            "/usr/bin/script", arguments: ["-qfec", command, "/dev/null"], environment: environment,
            standardInput: .pipe(input), standardOutput: .pipe(output), standardError: .pipe(output))
        let text = Mutex("")
        Thread.detachNewThread {
            while case let data = output.fileHandleForReading.availableData, !data.isEmpty {
                text.withLock { $0 += String(decoding: data, as: UTF8.self) }
            }
        }
        func waitFor(_ needle: String) async -> Bool {
            let deadline = ContinuousClock.now.advanced(by: .seconds(20))
            while ContinuousClock.now < deadline {
                if text.withLock({ $0.contains(needle) }) { return true }
                try? await Task.sleep(for: .milliseconds(20))
            }
            return false
        }
        defer { process.send(SIGKILL) }

        #expect(await waitFor("functions:"), "\(text.withLock { $0 })")
        input.fileHandleForWriting.write(Data("show me the log\n".utf8))
        #expect(await waitFor("Approve 1 tool call?"), "\(text.withLock { $0 })")
        input.fileHandleForWriting.write(Data([0x03]))
        let ended = await Task.detached { process.waitUntilExit(timeout: .seconds(15)) }.value
        #expect(ended?.status == 130, "\(text.withLock { $0 })")
        let transcript = text.withLock { $0 }
        #expect(transcript.contains("the calls waiting for approval were declined; leaving"))
        #expect(transcript.contains("read_log_tail"))
    }
}
