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
            callID: id, turnID: "turn-1", functionName: function, arguments: arguments, humanDescription: description,
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
    let auditPath: String?

    init(
        columns: Int = 100, isInteractive: Bool = true, environment: [String: String] = ["TERM": "xterm-256color"],
        fallback: any ToolApprover = DenyAllApprover(), audit: Bool = false
    ) {
        terminal = FakeTerminal(columns: columns, rows: 40, isInteractive: isInteractive, environment: environment)
        auditPath =
            audit ? FileManager.default.temporaryDirectory.appendingPathComponent("rk-audit-\(UUID()).jsonl").path : nil
        approver = TerminalApprover(
            screen: TerminalScreen(terminal: terminal.io), fallback: fallback,
            auditLog: auditPath.map(ApprovalAuditLog.init(path:)), clock: ResolveKitClock(clock),
            wallClock: { Date(timeIntervalSince1970: 1_800_000_000) })
    }

    /// The audit log's lines, parsed.
    func auditLines() throws -> [JSONValue] {
        guard let auditPath else { return [] }
        let text = try String(contentsOfFile: auditPath, encoding: .utf8)
        return try text.split(separator: "\n").map { try JSONValue(parsing: String($0)) }
    }

    /// The audit log's raw text.
    func auditText() throws -> String {
        guard let auditPath else { return "" }
        return try String(contentsOfFile: auditPath, encoding: .utf8)
    }
}

extension ManualClock.Instant {
    /// The instant `seconds` after the origin.
    static func seconds(_ seconds: Int) -> Self { Self(offset: .seconds(seconds)) }
}
