/// One step of a call through ``ToolCallRunner/run(_:in:allowedNames:deadlines:trace:startPermit:report:)``,
/// reported as it happens so the front end keeps its books (a session's journal and checklist, an MCP client's log)
/// without waiting for the batch.
package enum ToolCallReport: Sendable, Hashable {
    /// The call may run, or may not: `checklist` is the checklist's word for it, `decision` who decided and how
    /// (`nil` for a call refused before anyone was asked).
    case decided(ToolCallID, checklist: ToolCallChecklistItem.Decision, decision: ToolCallDecision?)
    /// Its function started.
    case started(ToolCallID)
    /// It ended, run or not, with `outcome`; `ranFor` is its running time when its function ran, `span` the
    /// context its work descended from (its `execute_tool` span's when traced).
    case finished(ToolCallID, ToolCallOutcome, ranFor: Duration?, span: SpanContext? = nil)

    /// The call the step is about.
    package var callID: ToolCallID {
        switch self {
        case .decided(let callID, _, _), .started(let callID), .finished(let callID, _, _, _): callID
        }
    }
}

/// When a call's steps must be done, on the runner's clock.
package struct ToolCallDeadlines: Sendable {
    /// When a decision must have been made (a call nobody decided by then is declined).
    package var approval: @Sendable (PendingToolCall) -> Duration
    /// When a call that starts at `now` must have its outcome.
    package var run: @Sendable (_ call: PendingToolCall, _ now: Duration) -> Duration

    /// Deadlines from these two rules.
    package init(
        approval: @escaping @Sendable (PendingToolCall) -> Duration,
        run: @escaping @Sendable (_ call: PendingToolCall, _ now: Duration) -> Duration
    ) {
        self.approval = approval
        self.run = run
    }
}
