import Foundation
import ResolveKit
import ResolveKitCLINetwork
import ResolveKitTerminal
import Synchronization

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
        let feedback = FeedbackRequests()
        let display = Task {
            for await event in transcript {
                renderer.show(event)
                // After an answer the agent invites a rating (`/rate`, hinted once); when the conversation is
                // resolved on the dashboard it asks now, and the input loop prompts for it.
                if case .feedbackRequested(let immediate) = event {
                    if immediate { feedback.request() } else if feedback.hintOnce() {
                        screen.print(StyledLine("(rate this conversation any time: /rate 1–5 [comment])", .dim))
                    }
                }
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
                if feedback.take() { await askForFeedback(reader) }
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

    /// The agent asked for a rating: one line, a number from 1 to 5 and an optional comment, or nothing to skip.
    private func askForFeedback(_ reader: LineReader) async {
        screen.showPrompt("Rate this answer 1–5 (and a comment), or press Enter to skip: ")
        let answer = await reader.readLine()
        screen.endPrompt()
        guard let answer, !answer.trimmingCharacters(in: .whitespaces).isEmpty else { return }
        await rate(answer)
    }

    /// `4 clear and quick` → a rating of 4 with that comment.
    private func rate(_ text: String) async {
        let parts = text.trimmingCharacters(in: .whitespaces).split(separator: " ", maxSplits: 1).map(String.init)
        guard let rating = parts.first.flatMap({ Int($0) }), (1...5).contains(rating) else {
            return screen.print(StyledLine("A rating is a number from 1 to 5; nothing was sent."))
        }
        do {
            switch try await runtime.submitFeedback(rating: rating, comment: parts.count > 1 ? parts[1] : nil) {
            case .recorded: screen.print(StyledLine("Thank you: rated \(rating).", .dim))
            case .alreadyGiven: screen.print(StyledLine("This conversation was already rated.", .dim))
            }
        } catch {
            screen.print(StyledLine("Could not send the rating: \(error.message)"))
        }
    }

    /// Reads a line at the `> ` prompt, which stays below whatever is printed while the user types.
    private func readLine(_ reader: LineReader) async -> String? {
        screen.showPrompt("> ")
        defer { screen.endPrompt() }
        return await reader.readLine()
    }

    static let commands = "/new, /locale <tag>, /history, /rate <1-5> [comment], /resend, /quit"

    /// `/resend`: the newest message that could not be sent goes again with its request id.
    private func resendLastFailed() async {
        guard let failed = runtime.messages.last(where: { if case .failed = $0.delivery { true } else { false } })
        else {
            return screen.print(StyledLine("No message failed to send."))
        }
        switch await runtime.resend(messageID: failed.id) {
        case .accepted: screen.print(StyledLine("Sent again: \(failed.text)", .dim))
        case .rejectedTurnInProgress: screen.print(StyledLine("A turn is still running; wait for its answer."))
        case .failed(let error): screen.print(StyledLine("Still not sent: \(error.message)"))
        }
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
        case "/rate":
            await rate(parts.count > 1 ? parts[1] : "")
        case "/resend":
            await resendLastFailed()
        case "/help":
            screen.print(StyledLine("Commands: \(Self.commands)"))
        default:
            screen.print(StyledLine("Unknown command \(parts[0]); the commands are \(Self.commands)"))
        }
        return true
    }
}

/// Whether the agent asked for a rating since the input loop last looked, and whether `/rate` was hinted.
final class FeedbackRequests: Sendable {
    private let requested = Mutex(false)
    private let hinted = Mutex(false)

    func request() { requested.withLock { $0 = true } }

    /// `true` the first time only.
    func hintOnce() -> Bool {
        hinted.withLock { hinted in
            defer { hinted = true }
            return !hinted
        }
    }

    /// Whether a rating was asked for; the request is taken.
    func take() -> Bool {
        requested.withLock { requested in
            defer { requested = false }
            return requested
        }
    }
}
