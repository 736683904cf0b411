import Foundation
import ResolveKitChildProcess
import Testing

/// rk-chat's slash commands, typed in a pseudo-terminal against the demo backend.
@Suite(.timeLimit(.minutes(1)))
struct ChatCommandTests {
    @Test func rateSendsOneRatingPerConversationAndRefusesANonNumber() async throws {
        let chat = try TerminalSession("--demo --approve all")
        defer { chat.kill() }

        #expect(await chat.waitFor("functions:"), "\(chat.transcript)")
        chat.type("What time is it?\n")
        #expect(await chat.waitFor("agent ›"), "\(chat.transcript)")
        #expect(await chat.waitFor("(rate this conversation any time: /rate 1–5 [comment])"), "\(chat.transcript)")
        var mark = chat.offset
        chat.type("/rate\n")
        #expect(await chat.waitFor("A rating is a number from 1 to 5; nothing was sent.", after: mark), "\(chat.transcript)")
        mark = chat.offset
        chat.type("/rate 5 quick and right\n")
        #expect(await chat.waitFor("Thank you: rated 5.", after: mark), "\(chat.transcript)")
        mark = chat.offset
        chat.type("/rate 2\n")
        #expect(await chat.waitFor("This conversation was already rated.", after: mark), "\(chat.transcript)")
        mark = chat.offset
        chat.type("/resend\n")
        #expect(await chat.waitFor("No message failed to send.", after: mark), "\(chat.transcript)")
        chat.type("/quit\n")
        let ended = await Task.detached { chat.process.waitUntilExit(timeout: .seconds(15)) }.value
        #expect(ended?.status == 0, "\(chat.transcript)")
    }
}
