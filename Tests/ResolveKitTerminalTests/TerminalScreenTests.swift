import ResolveKit
import ResolveKitTerminal
import ResolveKitTesting
import Testing

struct TerminalScreenTests {
    @Test("Printing goes above the live region, which is redrawn below it")
    func printAboveLive() {
        let terminal = FakeTerminal()
        let screen = TerminalScreen(terminal: terminal.io)
        screen.showLive(["live 1", "live 2"])
        screen.print("printed")
        screen.showLive(["live 3"])
        #expect(terminal.screenLines == ["printed", "live 3"])
        screen.commitLive()
        screen.showLive(["next"])
        #expect(terminal.screenLines == ["printed", "live 3", "next"])
        screen.clearLive()
        #expect(terminal.screenLines == ["printed", "live 3"])
    }

    @Test("Output printed while the user is at the prompt goes above it, and the prompt is drawn again")
    func promptRedrawnAfterInterruption() {
        let terminal = FakeTerminal()
        let screen = TerminalScreen(terminal: terminal.io)
        screen.print("Welcome")
        screen.showPrompt("> ")
        screen.print("Agent: a person joined the conversation")
        #expect(terminal.screenLines == ["Welcome", "Agent: a person joined the conversation", ">"])
        screen.terminal.write("hello\n")  // what the terminal echoes when the user enters the line
        screen.endPrompt()
        screen.print("after")
        #expect(terminal.screenLines.suffix(2) == ["> hello", "after"])
    }

    @Test("A live region shown and cleared while the user is at the prompt leaves the prompt on the last line")
    func promptKeptAcrossLiveRegions() {
        let terminal = FakeTerminal()
        let screen = TerminalScreen(terminal: terminal.io)
        screen.print("Welcome")
        screen.showPrompt("> ")
        screen.showLive(["Approval timed out: list_directory declined"])
        #expect(terminal.screenLines == ["Welcome", "Approval timed out: list_directory declined", ">"])
        screen.clearLive()
        #expect(terminal.screenLines == ["Welcome", ">"])
    }

    @Test("Without cursor control an interruption starts on a new line and repeats the prompt")
    func promptRepeatedWithoutCursorControl() {
        let terminal = FakeTerminal()
        let screen = TerminalScreen(terminal: terminal.io, capabilities: .plain)
        screen.showPrompt("> ")
        screen.print("notice")
        #expect(terminal.output == "> \nnotice\n> ")
    }

    @Test("Lines longer than the window are wrapped to it")
    func wraps() {
        let terminal = FakeTerminal(columns: 30)
        TerminalScreen(terminal: terminal.io).print(StyledLine(String(repeating: "abcde ", count: 10)))
        #expect(terminal.screenLines.count == 3)
        #expect(terminal.screenLines.allSatisfy { $0.count <= 29 })
    }

    @Test(
        "Colours and cursor movement follow NO_COLOR, TERM=dumb and whether it is a terminal",
        arguments: [
            (["TERM": "xterm"], true, TerminalCapabilities(colors: true, cursorControl: true)),
            (["TERM": "xterm", "NO_COLOR": ""], true, TerminalCapabilities(colors: false, cursorControl: true)),
            (["TERM": "xterm", "NO_COLOR": "1"], true, TerminalCapabilities(colors: false, cursorControl: true)),
            (["TERM": "dumb"], true, .plain),
            (["TERM": "xterm"], false, .plain),
        ])
    func capabilities(environment: [String: String], isTerminal: Bool, expected: TerminalCapabilities) {
        #expect(TerminalCapabilities(environment: environment, isTerminal: isTerminal) == expected)
    }

    @Test("With NO_COLOR the prompt has no colour codes; with TERM=dumb no escape codes at all")
    func noColor() async {
        let colored = Harness(environment: ["TERM": "xterm"])
        colored.terminal.type("a")
        _ = await colored.approver.decide(makeRequest([makeCall("c1", "f")]))
        #expect(colored.terminal.output.contains("\u{1B}[32m"))

        let noColor = Harness(environment: ["TERM": "xterm", "NO_COLOR": ""])
        noColor.terminal.type("a")
        _ = await noColor.approver.decide(makeRequest([makeCall("c1", "f")]))
        #expect(!noColor.terminal.output.contains(/\e\[[0-9;]*m/))
        #expect(noColor.terminal.screen.contains("✓ f · approved"))

        let dumb = Harness(environment: ["TERM": "dumb"])
        async let decision = dumb.approver.decide(makeRequest([makeCall("c1", "f")]))
        await dumb.clock.waitForSleeper(at: .seconds(1))
        dumb.clock.advance(to: .seconds(1))
        await dumb.clock.waitForSleeper(at: .seconds(2))
        dumb.terminal.type("a")
        _ = await decision
        #expect(!dumb.terminal.output.contains("\u{1B}"))
        #expect(dumb.terminal.screenLines.filter { $0.contains("Approve 1 tool call?") }.count == 1)
        #expect(dumb.terminal.screen.contains("✓ f · approved"))
    }
}

@Suite(.timeLimit(.minutes(1)))
struct TranscriptAndLineReaderTests {
    @Test(
        "Messages get a prefix for their role, continuation lines indented",
        arguments: [
            (ResolveKitChatMessage.Role.user, "you › "), (.assistant, "agent › "), (.humanAgent, "human › "),
            (.system, "system › "),
        ])
    func roles(role: ResolveKitChatMessage.Role, prefix: String) {
        let terminal = FakeTerminal(environment: ["TERM": "xterm", "NO_COLOR": "1"])
        let renderer = TranscriptRenderer(screen: TerminalScreen(terminal: terminal.io))
        renderer.show(.messageAppended(ResolveKitChatMessage(id: "m", role: role, text: "hello\nworld")))
        #expect(terminal.screenLines == [prefix + "hello", String(repeating: " ", count: prefix.count) + "world"])
    }

    @Test("A streaming draft is redrawn in place and replaced by the final message")
    func draft() {
        let terminal = FakeTerminal()
        let renderer = TranscriptRenderer(screen: TerminalScreen(terminal: terminal.io))
        renderer.show(.connectionStateChanged(.active))
        renderer.show(.assistantDraft("The load"))
        renderer.show(.assistantDraft("The load is low"))
        #expect(terminal.screenLines == ["· connection: active", "agent › The load is low ▍"])
        renderer.show(.messageAppended(ResolveKitChatMessage(id: "m", role: .assistant, text: "The load is low.")))
        #expect(terminal.screenLines == ["· connection: active", "agent › The load is low."])
        #expect(terminal.output.contains("\u{1B}[34m"))
    }

    @Test("Lines are read across chunks, with CR LF or LF, until the end of input")
    func lineReader() async {
        let terminal = FakeTerminal()
        let reader = LineReader(terminal: terminal.io)
        terminal.type("hel")
        terminal.type("lo\r\nsecond\nthi")
        terminal.type("rd")
        terminal.endInput()
        #expect(await reader.readLine(prompt: "> ") == "hello")
        #expect(await reader.readLine() == "second")
        #expect(await reader.readLine() == "third")
        #expect(await reader.readLine() == nil)
        #expect(terminal.output == "> ")
    }
}

struct TerminalScreenHeightTests {
    @Test("A live region taller than the window is cut in the middle so it can still be redrawn whole")
    func tallRegion() {
        let terminal = FakeTerminal(columns: 40, rows: 6)
        let screen = TerminalScreen(terminal: terminal.io)
        screen.showLive((1...10).map { StyledLine("row \($0)") })
        #expect(terminal.screenLines == ["row 1", "row 2", "row 3", "… (+6 lines not shown)", "row 10"])
        screen.showLive(["short"])
        #expect(terminal.screenLines == ["short"])
    }
}
