import ResolveKit
import ResolveKitTerminal

/// `--message`: one turn, the transcript and tool results printed, then exit.
struct OneShot {
    let runtime: ResolveKitRuntime
    let screen: TerminalScreen

    func run(_ message: String) async -> Int32 {
        let renderer = TranscriptRenderer(screen: screen)
        do {
            try await runtime.start()
        } catch {
            screen.print(StyledLine("rk-chat: could not connect: \(error)"))
            return 3
        }
        let events = runtime.events
        let outcome = await runtime.sendMessage(message)
        guard case .accepted = outcome else {
            screen.print(StyledLine("rk-chat: the message was not sent: \(outcome)"))
            return 1
        }
        for await event in events {
            if case .turnEnded = event { break }
        }
        for line in runtime.messages.flatMap(renderer.lines(for:)) { screen.print(line) }
        for item in runtime.toolCallBatches.flatMap(\.items) { screen.print(StyledLine(Self.describe(item))) }
        let failed = runtime.messages.last?.role != .assistant
        return failed ? 1 : 0
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
