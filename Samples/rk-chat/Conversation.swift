import Foundation
import ResolveKit
import ResolveKitTerminal

/// The interactive chat: the transcript as it happens, approvals inline, and slash commands.
struct Conversation {
    let runtime: ResolveKitRuntime
    let screen: TerminalScreen
    let terminal: TerminalIO
    let approver: any ToolApprover

    func run() async -> Int32 {
        let renderer = TranscriptRenderer(screen: screen)
        let transcript = runtime.events
        // The display renders every event; the input loop waits for it to have shown a turn's end before prompting.
        let (turnEnds, turnEnded) = AsyncStream<Void>.makeStream()
        let display = Task {
            for await event in transcript {
                renderer.show(event)
                if case .turnEnded = event { turnEnded.yield() }
            }
        }
        defer { display.cancel() }
        let checklistUpdates = runtime.events
        let checklist = Task { [approver] in
            if let terminalApprover = approver as? TerminalApprover { await terminalApprover.attach(to: checklistUpdates) }
        }
        defer { checklist.cancel() }
        screen.print(StyledLine("Connecting… (type /help for commands, Ctrl-D to leave)"))
        do {
            try await runtime.start()
        } catch {
            screen.print(StyledLine("rk-chat: could not connect: \(error)"))
            return 3
        }
        screen.print(StyledLine("\(runtime.chatTitle) — functions: \(runtime.registeredFunctionNames.joined(separator: ", "))"))
        let reader = LineReader(terminal: terminal)
        while let line = await readLine(reader) {
            let text = line.trimmingCharacters(in: .whitespaces)
            if text.isEmpty { continue }
            if text.hasPrefix("/") {
                guard await command(text, renderer: renderer) else { break }
                continue
            }
            switch await runtime.sendMessage(text) {
            case .accepted:
                // The transcript shows the turn as it happens; the live line says the agent is still at work.
                await WorkingIndicator(screen: screen, clock: .continuous).show {
                    for await _ in turnEnds { break }
                }
            case .rejectedTurnInProgress: screen.print(StyledLine("A turn is still running; wait for its answer."))
            case .failed:
                // The runtime already told the transcript why ("The message was not sent: …").
                continue
            }
        }
        return 0
    }

    /// Reads a line at the `> ` prompt, which stays below whatever is printed while the user types.
    private func readLine(_ reader: LineReader) async -> String? {
        screen.showPrompt("> ")
        defer { screen.endPrompt() }
        return await reader.readLine()
    }

    /// Runs a slash command; `false` means leave.
    private func command(_ text: String, renderer: TranscriptRenderer) async -> Bool {
        let parts = text.split(separator: " ", maxSplits: 1).map(String.init)
        switch parts[0] {
        case "/quit", "/exit": return false
        case "/new":
            await runtime.reloadWithNewSession()
            screen.print(StyledLine("Starting a new conversation…"))
        case "/locale":
            do {
                let requested = parts.count > 1 ? parts[1] : nil
                try await runtime.setLocale(requested)
                if let requested, requested.lowercased() != runtime.currentLocale.lowercased() {
                    screen.print(StyledLine(
                        "There is no \(requested) translation; the chat is in \(runtime.currentLocale): \(runtime.chatTitle)"))
                } else {
                    screen.print(StyledLine("Locale \(runtime.currentLocale): \(runtime.chatTitle)"))
                }
            } catch {
                screen.print(StyledLine("Could not switch the locale: \(error)"))
            }
        case "/history":
            for line in runtime.messages.flatMap(renderer.lines(for:)) { screen.print(line) }
        case "/help":
            screen.print(StyledLine("Commands: /new, /locale <tag>, /history, /quit"))
        default:
            screen.print(StyledLine("Unknown command \(parts[0]); the commands are /new, /locale <tag>, /history, /quit"))
        }
        return true
    }
}
