public import Foundation
public import ResolveKit
import Synchronization

/// Asks the operator at a terminal to approve each batch of tool calls, with a live countdown to each call's
/// deadline.
///
/// ```swift
/// let approver = TerminalApprover(auditLog: ApprovalAuditLog(path: "/var/log/rk-approvals.jsonl"))
/// let runtime = ResolveKitRuntime(configuration: .init(…, approver: approver))
/// try await withThrowingDiscardingTaskGroup { group in
///     group.addTask { await approver.attach(to: runtime) }   // keeps the checklist current while calls run
///     …
/// }
/// ```
/// Keys: `a` approve all, `d` decline all, `c`/space choose per call (↑/↓ or j/k move, space toggles, enter
/// confirms, esc back), `v` print the selected call's arguments in full, `s` allow the selected call's function
/// for the rest of the session (approved now; later calls to it are approved without asking), `?` help. Ctrl-C,
/// Ctrl-D and the end of input decline ("Declined at the terminal").
///
/// When standard input is not a terminal, nothing blocks: the `fallback` approver decides and the approver says so
/// once. Every decision is appended to the audit log when one is configured. Batches presented at the same time
/// (several runtimes sharing one approver) are asked one after the other; their countdowns run meanwhile.
public struct TerminalApprover: ToolApprover {
    /// Where the prompt and the checklist are drawn; share it with a ``TranscriptRenderer``.
    public let screen: TerminalScreen
    /// Who decides when no terminal is available.
    public let fallback: any ToolApprover
    /// Where decisions are recorded, if anywhere.
    public let auditLog: ApprovalAuditLog?
    /// The clock countdowns run on; the runtime's clock.
    public let clock: ResolveKitClock
    /// The wall clock for audit timestamps.
    public let wallClock: @Sendable () -> Date
    let storage = Storage()

    /// Creates an approver.
    /// - Parameters:
    ///   - screen: where to draw; the process's terminal by default.
    ///   - fallback: who decides when standard input is not a terminal; declines everything by default.
    ///   - auditLog: where to append decisions; none by default.
    ///   - clock: the clock for countdowns and deadlines; pass the runtime's clock.
    ///   - wallClock: the time written to the audit log.
    public init(
        screen: TerminalScreen = TerminalScreen(terminal: .live), fallback: any ToolApprover = DenyAllApprover(),
        auditLog: ApprovalAuditLog? = nil, clock: ResolveKitClock = .continuous,
        wallClock: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.screen = screen
        self.fallback = fallback
        self.auditLog = auditLog
        self.clock = clock
        self.wallClock = wallClock
    }

    /// Decides a batch: approves calls to functions allowed for the session without asking, asks the operator
    /// about the rest (or the fallback without a terminal), records the decisions and returns them. Returns
    /// promptly when cancelled; calls whose deadline passed are then recorded as timed out.
    public func decide(_ request: ToolApprovalRequest) async -> ToolBatchDecision {
        let askedAt = clock.elapsed
        if let decision = decideBySessionAllows(request) { return decision }
        guard screen.terminal.isInteractive else { return await decideByFallback(request) }
        guard await storage.gate.enter() else { return .declineAll(reason: "Approval cancelled") }
        defer { storage.gate.leave() }
        // Another prompt may have allowed these functions while this batch waited its turn.
        if let decision = decideBySessionAllows(request) { return decision }
        return await prompt(request, askedAt: askedAt, allowed: allowedFunctions(sessionID: request.sessionID))
    }

    private func decideBySessionAllows(_ request: ToolApprovalRequest) -> ToolBatchDecision? {
        let allowed = allowedFunctions(sessionID: request.sessionID)
        guard request.calls.allSatisfy({ allowed.contains($0.call.functionName) }) else { return nil }
        record(request, request.calls.map { ($0, ApprovalPrompt.Verdict.approved(via: .sessionAllow)) })
        return .approveAll
    }

    /// The functions allowed for the rest of `sessionID` with `s`.
    public func allowedFunctions(sessionID: String) -> Set<String> {
        storage.state.withLock { $0.allowedFunctions[sessionID] ?? [] }
    }

    private func decideByFallback(_ request: ToolApprovalRequest) async -> ToolBatchDecision {
        let announce = storage.state.withLock { state in
            defer { state.announcedFallback = true }
            return !state.announcedFallback
        }
        if announce {
            screen.print(StyledLine("approval needs a terminal; falling back to \(type(of: fallback))", .yellow))
        }
        let decision = await fallback.decide(request)
        record(
            request,
            request.calls.map { call in
                switch decision.decision(for: call.id) {
                case .approve: (call, .approved(via: .fallbackPolicy))
                case .decline(let reason):
                    (call, .declined(reason: reason ?? "User denied action", via: .fallbackPolicy))
                }
            })
        return decision
    }

    /// Appends the verdicts to the audit log; a failure is shown on the screen, once per decision.
    func record(_ request: ToolApprovalRequest, _ verdicts: [(ToolApprovalRequest.Call, ApprovalPrompt.Verdict)]) {
        guard let auditLog, !verdicts.isEmpty else { return }
        let time = wallClock()
        let records = verdicts.map { call, verdict in
            let (decision, reason, via): (ApprovalAuditRecord.Decision, String?, ApprovalAuditRecord.Channel) =
                switch verdict {
                case .approved(let via): (.approved, nil, via)
                case .declined(let reason, let via): (.declined, reason, via)
                case .timedOut: (.timedOut, ApprovalPrompt.timedOutReason, .terminal)
                }
            return ApprovalAuditRecord(
                time: time, sessionID: request.sessionID, batchID: request.batchID, callID: call.id,
                functionName: call.call.functionName, argumentDigest: ArgumentDigest.digest(call.call.arguments),
                decision: decision, reason: reason, via: via)
        }
        do {
            try auditLog.append(records)
        } catch {
            screen.print(StyledLine("\(error)", .red))
        }
    }
}

extension TerminalApprover {
    /// What an approver remembers across batches.
    final class Storage: Sendable {
        struct State {
            var allowedFunctions: [String: Set<String>] = [:]
            var announcedFallback = false
            var checklist: BatchChecklist?
        }

        let state = Mutex(State())
        let gate = PromptGate()
    }
}
