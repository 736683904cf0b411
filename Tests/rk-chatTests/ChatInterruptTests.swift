import Foundation
import ResolveKitChildProcess
import Glibc
import Testing

/// Ctrl-C at rk-chat's approval prompt declines what is pending, then leaves: a real process in a
/// pseudo-terminal, typed at as a person would.
@Suite(.timeLimit(.minutes(1)))
struct ChatInterruptTests {
    @Test func ctrlCAtAnApprovalPromptDeclinesAndLeaves() async throws {
        let chat = try TerminalSession("--demo")
        defer { chat.kill() }

        #expect(await chat.waitFor("functions:"), "\(chat.transcript)")
        chat.type("show me the log\n")
        #expect(await chat.waitFor("Approve 1 tool call?"), "\(chat.transcript)")
        chat.type(bytes: [0x03])
        let ended = await Task.detached { chat.process.waitUntilExit(timeout: .seconds(15)) }.value
        #expect(ended?.status == 130, "\(chat.transcript)")
        #expect(chat.transcript.contains("the calls waiting for approval were declined; leaving"))
        #expect(chat.transcript.contains("read_log_tail"))
    }
}
