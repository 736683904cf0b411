import Glibc
public import ResolveKitTools
import Synchronization

/// Asks the operator at a terminal to approve each batch of tool calls, with a live countdown to each call's
/// deadline.
///
/// ```swift
/// let approver = TerminalApprover()
/// let runtime = ResolveKitRuntime(configuration: .init(…, approver: approver))
/// try await withThrowingDiscardingTaskGroup { group in
///     group.addTask { await approver.attach(to: runtime) }   // keeps the checklist current while calls run
///     …
/// }
/// ```
/// Keys: `a` approve all, `d` decline all, `c`/space choose per call (↑/↓ or j/k move, space toggles, enter
/// confirms, esc back), `v` print the selected call's arguments in full, `s` allow the selected call's function
/// for the rest of the session (approved now; later calls to it are approved without asking), `?` help. Ctrl-D
/// and the end of input decline ("Declined at the terminal"); so does Ctrl-C, which then calls `onInterrupt`, so
/// that a host quits as Ctrl-C promises.
///
/// When standard input is not a terminal, nothing blocks: the `fallback` approver decides and the approver says so
/// once. Each decision names who made it (this process's user and terminal), for the runtime's
/// ``ResolveKit/ApprovalAuditTrail``. Batches presented at the same time (several runtimes sharing one approver)
/// are asked one after the other; their countdowns run meanwhile.
public struct TerminalApprover: ToolApprover {
    /// Where the prompt and the checklist are drawn; share it with a ``TranscriptRenderer``.
    public let screen: TerminalScreen
    /// Who decides when no terminal is available.
    public let fallback: any ToolApprover
    /// The clock countdowns run on; the runtime's clock.
    public let clock: ResolveKitClock
    /// Called when the operator pressed Ctrl-C at a prompt, just before its calls are returned declined.
    let onInterrupt: (@Sendable () -> Void)?
    let storage = Storage()

    /// Creates an approver.
    /// - Parameters:
    ///   - screen: where to draw; the process's terminal by default.
    ///   - fallback: who decides when standard input is not a terminal; declines everything by default.
    ///   - clock: the clock for countdowns and deadlines; pass the runtime's clock.
    ///   - onInterrupt: called when the operator presses Ctrl-C at a prompt, just before the prompt's calls are
    ///     returned declined. A host quits then, as Ctrl-C promises; one that must deliver the declines first
    ///     waits for the batch to close (``ResolveKit/ResolveKitRuntime/pendingApprovals``) and drains. Without it,
    ///     Ctrl-C only declines.
    public init(
        screen: TerminalScreen = TerminalScreen(terminal: .live), fallback: any ToolApprover = DenyAllApprover(),
        clock: ResolveKitClock = .continuous, onInterrupt: (@Sendable () -> Void)? = nil
    ) {
        self.screen = screen
        self.fallback = fallback
        self.clock = clock
        self.onInterrupt = onInterrupt
    }

    /// Decides a batch: approves calls to functions allowed for the session without asking, asks the operator
    /// about the rest (or the fallback without a terminal) and returns the decisions with who made them. Returns
    /// promptly when cancelled.
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
        return Self.attributed(request, request.calls.map { ($0, ApprovalPrompt.Verdict.approved(via: .sessionAllow)) })
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
        return await fallback.decide(request)
    }

    /// The verdicts as the runtime's decision, each naming who made it: this process's user at its terminal,
    /// the session-wide allow given there, or the end of input.
    static func attributed(
        _ request: ToolApprovalRequest, _ verdicts: [(ToolApprovalRequest.Call, ApprovalPrompt.Verdict)]
    ) -> ToolBatchDecision {
        var decisions: [ToolCallID: ToolCallDecision] = [:]
        for (call, verdict) in verdicts {
            let decider: ToolCallDecision.Decider
            switch verdict {
            case .approved(.sessionAllow), .declined(_, .sessionAllow):
                decider = .remembered(id: "session allow of \(call.call.functionName) at the terminal")
            case .approved(.endOfInput), .declined(_, .endOfInput):
                decider = .automatic(reason: "the terminal's input ended")
            case .approved(.terminal), .declined(_, .terminal), .approved(.interrupt), .declined(_, .interrupt),
                .timedOut:
                decider = operatorAtThisTerminal
            }
            decisions[call.id] = .attributed(verdict.callDecision, by: decider)
        }
        return .perCall(decisions)
    }

    /// The person answering at this process's terminal.
    static let operatorAtThisTerminal = ToolCallDecision.Decider.person(
        uid: getuid(), pid: getpid(), terminal: ttyname(STDIN_FILENO).map { String(cString: $0) })
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
