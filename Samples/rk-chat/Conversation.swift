import Foundation
import ResolveKit
import ResolveKitCLINetwork
import ResolveKitTerminal

/// The interactive chat: the transcript as it happens, approvals inline, and slash commands. Ctrl-C at an approval
/// prompt declines what it shows, then leaves (exit 130), as Ctrl-C at the `> ` prompt does.
struct Conversation {
    /// What the input loop waits for while a turn runs.
    enum Signal: Sendable {
        /// The display has shown the turn's end.
        case turnEnded
        /// Ctrl-C at an approval prompt: its calls were declined, and the chat ends.
        case interrupted
    }

    /// The exit status after Ctrl-C (128 + SIGINT, as a shell reports a process Ctrl-C ended).
    static let interruptedStatus: Int32 = 130

    let runtime: ResolveKitRuntime
    let screen: TerminalScreen
    let terminal: TerminalIO
    let approver: any ToolApprover
    /// Ctrl-C at an approval prompt (``ResolveKitTerminal/TerminalApprover``'s `onInterrupt`).
    let interrupts: AsyncStream<Void>

    func run() async -> Int32 {
        let renderer = TranscriptRenderer(screen: screen)
        let transcript = runtime.events
        // The display renders every event; the input loop waits for it to have shown a turn's end before prompting.
        let (signals, signal) = AsyncStream<Signal>.makeStream()
        let display = Task {
            for await event in transcript {
                renderer.show(event)
                if case .turnEnded = event { signal.yield(.turnEnded) }
            }
        }
        defer { display.cancel() }
        let interruptions = Task { [interrupts] in
            for await _ in interrupts { signal.yield(.interrupted) }
        }
        defer { interruptions.cancel() }
        let checklistUpdates = runtime.events
        let checklist = Task { [approver] in
            if let terminalApprover = approver as? TerminalApprover { await terminalApprover.attach(to: checklistUpdates) }
        }
        defer { checklist.cancel() }
        screen.print(StyledLine("Connecting… (type /help for commands, Ctrl-D or Ctrl-C to leave)"))
        if let error = await Connecting.start(runtime) {
            for line in NetworkFailure.report(error, tool: "rk-chat", headline: "could not connect") {
                screen.print(StyledLine(line))
            }
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
                let ending = await WorkingIndicator(screen: screen, clock: .continuous).show { () async -> Signal in
                    for await signal in signals { return signal }
                    return .turnEnded
                }
                if ending == .interrupted { return await leaveAfterInterrupt() }
            case .rejectedTurnInProgress: screen.print(StyledLine("A turn is still running; wait for its answer."))
            case .failed:
                // The runtime already told the transcript why ("The message was not sent: …").
                continue
            }
        }
        return 0
    }

    /// After Ctrl-C at a prompt: the runtime records the declines and posts them (the agent is told), then the
    /// chat ends.
    private func leaveAfterInterrupt() async -> Int32 {
        screen.print(StyledLine("Ctrl-C: the calls waiting for approval were declined; leaving.", .dim))
        let deadline = ContinuousClock.now.advanced(by: .seconds(2))
        while !runtime.pendingApprovals.isEmpty, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(10))
        }
        await runtime.drain(timeout: .seconds(5))
        return Self.interruptedStatus
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
