public import ResolveKit
import Synchronization

/// Shows a conversation on a ``TerminalScreen``: messages with role-coloured prefixes, connection changes, and the
/// streaming draft of the answer redrawn in place until the final message replaces it. Colours follow the
/// screen's capabilities (none with `NO_COLOR`, `TERM=dumb` or without a terminal).
///
/// Feed it the runtime's events: `for await event in runtime.events { renderer.show(event) }`. Share the screen
/// with a ``TerminalApprover``: each owns its own live region, and neither erases the other's.
public final class TranscriptRenderer: Sendable {
    /// Where lines go.
    public let screen: TerminalScreen
    private let draftShowing = Mutex(false)

    /// Creates a renderer on `screen`.
    public init(screen: TerminalScreen) { self.screen = screen }

    /// Shows what an event means for a person: messages, connection changes, drafts and errors; other events are
    /// ignored.
    public func show(_ event: ResolveKitRuntimeEvent) {
        switch event {
        case .messageAppended(let message):
            clearDraft()
            screen.print(lines(for: message))
        case .assistantDraft(let text):
            draftShowing.withLock { $0 = true }
            screen.showLive(draftLines(text), isMinorUpdate: true, owner: ObjectIdentifier(self))
        case .connectionStateChanged(let state):
            screen.print(line(for: state))
        case .turnEnded:
            clearDraft()
        case .error(let text):
            screen.print(StyledLine("error: \(text)", .red))
        default:
            break
        }
    }

    /// A message as lines: `you ›`, `agent ›`, `human ›` or `system ›` on the first, the rest indented to match.
    public func lines(for message: ResolveKitChatMessage) -> [StyledLine] {
        let (label, style): (String, TextStyle) =
            switch message.role {
            case .user: ("you", .cyan)
            case .assistant: ("agent", .blue)
            case .humanAgent: ("human", .magenta)
            case .system: ("system", .yellow)
            }
        let prefix = "\(label) › "
        let indent = String(repeating: " ", count: prefix.count)
        return message.text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().map { index, text in
            index == 0 ? StyledLine([.init(prefix, style), .init(String(text))]) : StyledLine(indent + text)
        }
    }

    /// A connection change as one dimmed line, e.g. `· connection: reconnecting (attempt 2, in 4.0 seconds)`.
    public func line(for state: ResolveKitConnectionState) -> StyledLine {
        switch state {
        case .failed, .blocked: StyledLine("· connection: \(state)", .red)
        default: StyledLine("· connection: \(state)", .dim)
        }
    }

    /// The streaming answer so far, as the live region shows it.
    public func draftLines(_ text: String) -> [StyledLine] {
        var lines = lines(for: ResolveKitChatMessage(id: "draft", role: .assistant, text: text))
        if let last = lines.popLast() { lines.append(StyledLine(last.spans + [.init(" ▍", .dim)])) }
        return lines
    }

    private func clearDraft() {
        let showing = draftShowing.withLock { showing in
            defer { showing = false }
            return showing
        }
        if showing { screen.clearLive(owner: ObjectIdentifier(self)) }
    }
}
