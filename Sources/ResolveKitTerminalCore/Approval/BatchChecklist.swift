import ResolveKitTools

/// A decided batch as a checklist that follows its calls while they run. Pure; the approver shows its lines.
struct BatchChecklist: Sendable, Hashable {
    enum Status: Sendable, Hashable {
        case waiting
        case approved
        case declined(String)
        case timedOut
        case running
        case done
        case failed(String)

        var isFinal: Bool {
            switch self {
            case .declined, .timedOut, .done, .failed: true
            case .waiting, .approved, .running: false
            }
        }
    }

    struct Row: Sendable, Hashable {
        var callID: ToolCallID
        var functionName: String
        var status: Status
    }

    var batchID: Int
    var rows: [Row]

    init(batchID: Int, calls: [ToolApprovalRequest.Call], verdicts: [ToolCallID: ApprovalPrompt.Verdict]) {
        self.batchID = batchID
        rows = calls.map { call in
            let status: Status =
                switch verdicts[call.id] {
                case .approved?: .approved
                case .declined(let reason, _)?: .declined(reason)
                case .timedOut?: .timedOut
                case nil: .waiting
                }
            return Row(callID: call.id, functionName: call.call.functionName, status: status)
        }
    }

    /// Whether every call has an outcome.
    var isFinished: Bool { rows.allSatisfy(\.status.isFinal) }

    /// Applies a runtime update and returns the changed row's line; `nil` when the call is not in this batch or
    /// nothing changed.
    mutating func update(_ item: ToolCallChecklistItem) -> StyledLine? {
        guard let index = rows.firstIndex(where: { $0.callID == item.id }) else { return nil }
        let status: Status
        switch item.status {
        case .pendingApproval: return nil
        case .running: status = .running
        case .completed: status = .done
        case .cancelled(let reason) where reason == ApprovalPrompt.timedOutReason: status = .timedOut
        case .cancelled(let reason): status = .declined(reason)
        case .failed(let reason): status = .failed(reason)
        }
        guard rows[index].status != status else { return nil }
        rows[index].status = status
        return Self.line(rows[index])
    }

    var lines: [StyledLine] {
        [StyledLine("Tool calls · batch \(batchID)", .bold)] + rows.map(Self.line)
    }

    private static func line(_ row: Row) -> StyledLine {
        let (mark, text, style): (String, String, TextStyle) =
            switch row.status {
            case .waiting: ("…", "waiting", .yellow)
            case .approved: ("✓", "approved", .green)
            case .declined(let reason): ("✗", "declined: \(reason)", .red)
            case .timedOut: ("⌛", "timed out", .red)
            case .running: ("▶", "running", .yellow)
            case .done: ("✔", "done", .green)
            case .failed(let reason): ("✗", "failed: \(reason)", .red)
            }
        return StyledLine([.init("  \(mark) ", style), .init(row.functionName, .bold), .init(" · \(text)", style)])
    }
}
