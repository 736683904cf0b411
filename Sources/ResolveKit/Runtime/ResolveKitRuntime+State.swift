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
    public var toolCallBatchState: ResolveKitToolCallBatchState { observe(\.toolCallBatchState, \.toolCallBatchState) }
    /// Every approval batch so far (the newest 200).
    public var toolCallBatches: [ToolCallChecklistBatch] { observe(\.toolCallBatches, \.toolCallBatches) }
    /// Lifecycle lines for debugging (the newest 500); never contains secrets.
    public var executionLog: [String] { observe(\.executionLog, \.executionLog) }
    /// The last unrecoverable problem.
    public var lastError: String? { observe(\.lastError, \.lastError) }
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

    /// Changes the snapshot and notifies observers of each property that changed.
    func update(_ change: (inout RuntimeSnapshot) -> Void) {
        let (old, new) = state.withLock { snapshot -> (RuntimeSnapshot, RuntimeSnapshot) in
            let old = snapshot
            change(&snapshot)
            return (old, snapshot)
        }
        notify(\.messages, old.messages != new.messages)
        notify(\.connectionState, old.connectionState != new.connectionState)
        notify(\.isTurnInProgress, old.isTurnInProgress != new.isTurnInProgress)
        notify(\.activeTurnID, old.activeTurnID != new.activeTurnID)
        notify(\.assistantDraft, old.assistantDraft != new.assistantDraft)
        notify(\.toolCallChecklist, old.toolCallChecklist != new.toolCallChecklist)
        notify(\.pendingToolCall, old.toolCallChecklist != new.toolCallChecklist)
        notify(\.toolCallBatchState, old.toolCallBatchState != new.toolCallBatchState)
        notify(\.toolCallBatches, old.toolCallBatches != new.toolCallBatches)
        notify(\.executionLog, old.executionLog != new.executionLog)
        notify(\.lastError, old.lastError != new.lastError)
        notify(\.currentLocale, old.currentLocale != new.currentLocale)
        notify(\.chatTitle, old.chatTitle != new.chatTitle)
        notify(\.messagePlaceholder, old.messagePlaceholder != new.messagePlaceholder)
        notify(\.sessionID, old.sessionID != new.sessionID)
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
