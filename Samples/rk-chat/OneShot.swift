import Foundation
import ResolveKit
import ResolveKitCLINetwork
import ResolveKitTerminal

/// `--message`: one turn asked and awaited; the transcript is printed as it happens (the question, each call as
/// it runs and ends, the answer), then each call's result, then exit. Only this turn is printed.
struct OneShot {
    let runtime: ResolveKitRuntime
    let screen: TerminalScreen
    /// Whether the conversation so far (a reused session's history, the greeting) is printed first.
    var showsHistory = false

    /// Exit 0 when the agent answered, 1 when it did not (an agent error, a lost turn, a refused message), 3 when
    /// the backend could not be reached or refused this host, or the network failed the turn (the cause printed in
    /// words).
    func run(_ message: String) async -> Int32 {
        let renderer = TranscriptRenderer(screen: screen)
        // The transcript shows no connection states: the first retried failure is said on standard error, so a
        // person or a script waiting out the connect budget knows why.
        let budget = runtime.configuration.connectTimeout.map { " for up to \($0.components.seconds) s" } ?? ""
        let connecting = await Connecting.start(runtime) { cause in
            let line = "rk-chat: not connected yet, retrying\(budget): \(cause.message)\n"
            FileHandle.standardError.write(Data(line.utf8))
        }
        if let error = connecting {
            print(NetworkFailure.report(error, tool: "rk-chat", headline: "could not connect"))
            return 3
        }
        if showsHistory {
            for line in runtime.messages.flatMap(renderer.lines(for:)) { screen.print(line) }
        }
        let events = runtime.events  // subscribed before asking: nothing of the turn is missed
        let display = Task {
            for await event in events {
                if case .connectionStateChanged = event { continue }
                renderer.show(event)
                if case .turnEnded = event { return }
            }
        }
        let result: ResolveKitTurnResult
        do {
            result = try await runtime.ask(message)
        } catch {
            display.cancel()
            print(NetworkFailure.report(error, tool: "rk-chat", headline: "no answer"))
            return error.code == .unreachable || NetworkFailure(error) != nil ? 3 : 1
        }
        await display.value
        for item in result.toolCalls { screen.print(StyledLine(Self.describe(item))) }
        return result.ending == .answered && !result.text.isEmpty ? 0 : 1
    }

    /// A failure's report goes to standard error, so a script reading the transcript on standard output does
    /// not take it for the agent's words.
    private func print(_ lines: [String]) {
        FileHandle.standardError.write(Data(lines.map { $0 + "\n" }.joined().utf8))
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
