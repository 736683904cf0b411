import ResolveKit
import ResolveKitTerminal

/// `--message`: one turn asked and awaited; the question, its tool calls and the answer printed, then exit.
struct OneShot {
    let runtime: ResolveKitRuntime
    let screen: TerminalScreen

    /// Exit 0 when the agent answered, 1 when it did not (an agent error, a lost turn, a refused message), 3 when
    /// the backend could not be reached or refused this host.
    func run(_ message: String) async -> Int32 {
        let renderer = TranscriptRenderer(screen: screen)
        do {
            try await runtime.start()
        } catch {
            screen.print(StyledLine("rk-chat: could not connect: \(error.message)"))
            return 3
        }
        for line in renderer.lines(for: ResolveKitChatMessage(id: "question", role: .user, text: message)) {
            screen.print(line)
        }
        let result: ResolveKitTurnResult
        do {
            result = try await runtime.ask(message)
        } catch {
            screen.print(StyledLine("rk-chat: no answer: \(error.message)"))
            return error.code == .unreachable ? 3 : 1
        }
        for item in result.toolCalls { screen.print(StyledLine(Self.describe(item))) }
        let role: ResolveKitChatMessage.Role = result.ending == .answered ? .assistant : .system
        for line in renderer.lines(for: ResolveKitChatMessage(id: result.turnID, role: role, text: result.text)) {
            screen.print(line)
        }
        return result.ending == .answered && !result.text.isEmpty ? 0 : 1
    }

    static func describe(_ item: ToolCallChecklistItem) -> String {
        switch item.status {
        case .completed: "tool \(item.functionName): completed → \(item.result?.serialized(options: .sortedKeys) ?? "null")"
        case .failed(let reason): "tool \(item.functionName): failed: \(reason)"
        case .cancelled(let reason): "tool \(item.functionName): declined: \(reason)"
        case .running: "tool \(item.functionName): running"
        case .pendingApproval: "tool \(item.functionName): awaiting approval"
        }
    }
}
