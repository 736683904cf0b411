import Foundation
import ResolveKit
import ResolveKitTerminal
import ResolveKitTesting

/// A call to decide, with `timeout` seconds left.
func makeCall(
    _ id: String, _ function: String, arguments: JSONValue = [:], description: String = "I will do something useful.",
    timeout: Int = 30
) -> ToolApprovalRequest.Call {
    ToolApprovalRequest.Call(
        call: PendingToolCall(
            callID: ToolCallID(id), turnID: "turn-1", functionName: function, arguments: arguments, humanDescription: description,
            requiresApproval: true, timeoutSeconds: timeout, receivedAt: .zero),
        timeRemaining: .seconds(timeout))
}

/// A batch of calls.
func makeRequest(_ calls: [ToolApprovalRequest.Call], batch: Int = 1, session: String = "session-1")
    -> ToolApprovalRequest
{
    ToolApprovalRequest(batchID: batch, calls: calls, sessionID: session)
}

/// A fake terminal, a manual clock and an approver on both.
struct Harness {
    let terminal: FakeTerminal
    let clock = ManualClock()
    let approver: TerminalApprover

    init(
        columns: Int = 100, isInteractive: Bool = true, environment: [String: String] = ["TERM": "xterm-256color"],
        fallback: any ToolApprover = DenyAllApprover(), onInterrupt: (@Sendable () -> Void)? = nil
    ) {
        terminal = FakeTerminal(columns: columns, rows: 40, isInteractive: isInteractive, environment: environment)
        approver = TerminalApprover(
            screen: TerminalScreen(terminal: terminal.io), fallback: fallback, clock: ResolveKitClock(clock),
            onInterrupt: onInterrupt)
    }
}

extension ManualClock.Instant {
    /// The instant `seconds` after the origin.
    static func seconds(_ seconds: Int) -> Self { Self(offset: .seconds(seconds)) }
}
