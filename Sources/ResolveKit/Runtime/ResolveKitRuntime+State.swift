import Observation
import Synchronization

extension ResolveKitRuntime {
    /// The transcript: user, assistant, human-agent and system messages in order (the newest 1000).
    public var messages: [ResolveKitChatMessage] { observe(\.messages, \.messages) }
    /// Where the session and its stream are.
    public var connectionState: ResolveKitConnectionState { observe(\.connectionState, \.connectionState) }
    /// Whether a turn is running (sending is refused meanwhile).
    public var isTurnInProgress: Bool { observe(\.isTurnInProgress, \.isTurnInProgress) }
    /// The server turn id of the running turn.
    public var activeTurnID: String? { observe(\.activeTurnID, \.activeTurnID) }
    /// The streamed text of the answer so far, when the backend streams.
    public var assistantDraft: String? { observe(\.assistantDraft, \.assistantDraft) }
    /// The first call of the current checklist still waiting for approval.
    public var pendingToolCall: ToolCallChecklistItem? {
        observe(\.pendingToolCall, \.toolCallChecklist).first { $0.status == .pendingApproval }
    }
    /// The current batch's calls with their status.
    public var toolCallChecklist: [ToolCallChecklistItem] { observe(\.toolCallChecklist, \.toolCallChecklist) }
    /// The current batch's aggregate state.
    public var toolCallBatchState: ToolCallChecklistBatch.State { observe(\.toolCallBatchState, \.toolCallBatchState) }
    /// Every approval batch so far (the newest 200).
    public var toolCallBatches: [ToolCallChecklistBatch] { observe(\.toolCallBatches, \.toolCallBatches) }
    /// Lifecycle lines for debugging (the newest 500); never contains secrets.
    public var executionLog: [String] { observe(\.executionLog, \.executionLog.lines) }
    /// The last problem that stopped the runtime or was worth telling a person.
    public var lastError: ResolveKitError? { observe(\.lastError, \.lastError) }
    /// The session's locale.
    public var currentLocale: String { observe(\.currentLocale, \.currentLocale) }
    /// The localized chat title.
    public var chatTitle: String { observe(\.chatTitle, \.chatTitle) }
    /// The localized composer placeholder.
    public var messagePlaceholder: String { observe(\.messagePlaceholder, \.messagePlaceholder) }
    /// The current session id.
    public var sessionID: String? { observe(\.sessionID, \.sessionID) }

    private func observe<Observed, Value: Sendable>(
        _ keyPath: KeyPath<ResolveKitRuntime, Observed>, _ field: any KeyPath<RuntimeSnapshot, Value> & Sendable
    ) -> Value {
        registrar.access(self, keyPath: keyPath)
        return state.withLock { $0[keyPath: field] }
    }

    /// Changes the snapshot and notifies observers of each property that changed (the snapshot marks them, so an
    /// update costs the same however long the transcript or log is).
    func update(_ change: (inout RuntimeSnapshot) -> Void) {
        let changes = state.withLock { snapshot -> RuntimeSnapshot.Changes in
            change(&snapshot)
            defer { snapshot.changes = [] }
            return snapshot.changes
        }
        guard !changes.isEmpty else { return }
        notify(\.messages, changes.contains(.messages))
        notify(\.connectionState, changes.contains(.connectionState))
        notify(\.isTurnInProgress, changes.contains(.isTurnInProgress))
        notify(\.activeTurnID, changes.contains(.activeTurnID))
        notify(\.assistantDraft, changes.contains(.assistantDraft))
        notify(\.toolCallChecklist, changes.contains(.toolCallChecklist))
        notify(\.pendingToolCall, changes.contains(.toolCallChecklist))
        notify(\.toolCallBatchState, changes.contains(.toolCallBatchState))
        notify(\.toolCallBatches, changes.contains(.toolCallBatches))
        notify(\.executionLog, changes.contains(.executionLog))
        notify(\.lastError, changes.contains(.lastError))
        notify(\.currentLocale, changes.contains(.currentLocale))
        notify(\.chatTitle, changes.contains(.chatTitle))
        notify(\.messagePlaceholder, changes.contains(.messagePlaceholder))
        notify(\.sessionID, changes.contains(.sessionID))
    }

    private func notify<Value>(_ keyPath: KeyPath<ResolveKitRuntime, Value>, _ changed: Bool) {
        guard changed else { return }
        registrar.willSet(self, keyPath: keyPath)
        registrar.didSet(self, keyPath: keyPath)
    }

    func makeOutput() -> RuntimeOutput {
        RuntimeOutput(
            update: { [weak self] change in self?.update(change) },
            emit: { [weak self] event in self?.broadcaster.send(event) },
            read: { [weak self] in self?.state.withLock { $0 } ?? RuntimeSnapshot() },
            logger: configuration.logger.labeled("resolvekit"))
    }
}

extension ResolveKitRuntime {
    /// The calls waiting for approval, by batch (see ``ToolApprovals/pending``).
    public var pendingApprovals: [ToolApprovalRequest] { approvals.pending }

    /// Approves waiting calls from any task (see ``ToolApprovals/approve(callIDs:by:)``).
    public func approve(callIDs: [ToolCallID], by decider: ToolCallDecision.Decider = .host("api")) throws(ResolveKitError) {
        try approvals.approve(callIDs: callIDs, by: decider)
    }

    /// Declines waiting calls from any task (see ``ToolApprovals/decline(callIDs:reason:by:)``).
    public func decline(
        callIDs: [ToolCallID], reason: String? = nil, by decider: ToolCallDecision.Decider = .host("api")
    ) throws(ResolveKitError) {
        try approvals.decline(callIDs: callIDs, reason: reason, by: decider)
    }

    /// Approves one waiting call with edited arguments (see ``ToolApprovals/approve(callID:arguments:by:)``).
    public func approve(
        callID: ToolCallID, arguments: JSONValue, by decider: ToolCallDecision.Decider = .host("api")
    ) throws(ResolveKitError) {
        try approvals.approve(callID: callID, arguments: arguments, by: decider)
    }
}
