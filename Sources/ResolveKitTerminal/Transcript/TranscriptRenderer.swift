public import ResolveKit
import ResolveKitTerminalCore
import Foundation
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
        case .error(let error):
            screen.print(StyledLine("error: \(error.message)", .red))
        case .toolCallUpdated(let item):
            if let line = line(for: item) { screen.print(line) }
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

    /// A call's progress as one dimmed line: `· running get_disk_usage…` when it starts (approval-free calls
    /// included), `· get_disk_usage completed in 12 ms` or `· read_log_tail declined: …` when it ends; `nil` for a
    /// call still waiting for approval (the approval prompt shows it).
    public func line(for item: ToolCallChecklistItem) -> StyledLine? {
        let duration = item.startedAt.flatMap { start in item.finishedAt.map { Self.milliseconds($0 - start) } }
        switch item.status {
        case .pendingApproval: return nil
        case .running: return StyledLine("· running \(item.functionName)…", .dim)
        case .completed: return StyledLine("· \(item.functionName) completed" + (duration.map { " in \($0)" } ?? ""), .dim)
        case .failed(let reason): return StyledLine("· \(item.functionName) failed: \(reason)", .red)
        case .cancelled(let reason): return StyledLine("· \(item.functionName) declined: \(reason)", .yellow)
        }
    }

    static func milliseconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let milliseconds = seconds * 1000 + attoseconds / 1_000_000_000_000_000
        if milliseconds == 0 { return "<1 ms" }
        return milliseconds < 1000 ? "\(milliseconds) ms" : String(format: "%.1f s", Double(milliseconds) / 1000)
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
