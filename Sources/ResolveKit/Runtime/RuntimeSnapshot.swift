/// The observable state of a runtime, as one value.
struct RuntimeSnapshot: Sendable {
    /// Bumped whenever an array property changes, so observers are notified without comparing (or copying)
    /// whole arrays on every update.
    struct Revisions: Equatable, Sendable {
        var messages = 0
        var toolCallChecklist = 0
        var toolCallBatches = 0
        var executionLog = 0
    }

    private(set) var revisions = Revisions()
    var messages: [ResolveKitChatMessage] = [] { didSet { revisions.messages &+= 1 } }
    var connectionState = ResolveKitConnectionState.idle
    var isTurnInProgress = false
    var activeTurnID: String?
    var assistantDraft: String?
    var toolCallChecklist: [ToolCallChecklistItem] = [] { didSet { revisions.toolCallChecklist &+= 1 } }
    var toolCallBatchState = ToolCallChecklistBatch.State.idle
    var toolCallBatches: [ToolCallChecklistBatch] = [] { didSet { revisions.toolCallBatches &+= 1 } }
    var executionLog: [String] = [] { didSet { revisions.executionLog &+= 1 } }
    var lastError: ResolveKitError?
    var currentLocale = "en"
    var chatTitle = "Support Chat"
    var messagePlaceholder = "Message"
    var sessionID: String?
    var nextBatchID = 0

    /// The most transcript messages and log lines kept in memory; older ones are dropped first.
    static let maxMessages = 1000
    static let maxLogLines = 500
    static let maxBatches = 200

    mutating func appendMessage(_ message: ResolveKitChatMessage) {
        messages.append(message)
        if messages.count > Self.maxMessages { messages.removeFirst(messages.count - Self.maxMessages) }
    }

    /// Marks a message the user sent as pending, sent or failed (the newest with that id).
    mutating func setDelivery(_ delivery: ResolveKitChatMessage.Delivery, ofMessage id: String) {
        guard let index = messages.lastIndex(where: { $0.id == id }) else { return }
        messages[index].delivery = delivery
    }

    mutating func log(_ line: String) {
        executionLog.append(line)
        if executionLog.count > Self.maxLogLines { executionLog.removeFirst(executionLog.count - Self.maxLogLines) }
    }

    mutating func updateItem(_ item: ToolCallChecklistItem) {
        if let index = toolCallChecklist.firstIndex(where: { $0.id == item.id }) {
            toolCallChecklist[index] = item
        }
        for batchIndex in toolCallBatches.indices.reversed() {
            if let index = toolCallBatches[batchIndex].items.firstIndex(where: { $0.id == item.id }) {
                toolCallBatches[batchIndex].items[index] = item
                break
            }
        }
        toolCallBatchState = Self.batchState(of: toolCallChecklist)
    }

    /// Adds a call that needs no approval: a batch of its own in the history, and a row of the current
    /// checklist (a fresh one when the last batch is done, so a batch awaiting approval stays visible).
    mutating func addImmediate(_ item: ToolCallChecklistItem) {
        appendToHistory([item])
        if toolCallBatchState == .completed || toolCallBatchState == .idle { toolCallChecklist = [] }
        toolCallChecklist.append(item)
        toolCallBatchState = Self.batchState(of: toolCallChecklist)
    }

    /// Starts an approval batch; returns it with its history id.
    mutating func startBatch(_ items: [ToolCallChecklistItem]) -> ToolCallChecklistBatch {
        let batch = appendToHistory(items)
        toolCallChecklist = items
        toolCallBatchState = Self.batchState(of: toolCallChecklist)
        return batch
    }

    @discardableResult
    private mutating func appendToHistory(_ items: [ToolCallChecklistItem]) -> ToolCallChecklistBatch {
        nextBatchID += 1
        let batch = ToolCallChecklistBatch(id: nextBatchID, items: items)
        toolCallBatches.append(batch)
        if toolCallBatches.count > Self.maxBatches { toolCallBatches.removeFirst() }
        return batch
    }

    static func batchState(of items: [ToolCallChecklistItem]) -> ToolCallChecklistBatch.State {
        if items.isEmpty { return .idle }
        if items.contains(where: { $0.status == .pendingApproval }) { return .awaitingApproval }
        if items.contains(where: { $0.status == .running }) { return .running }
        return .completed
    }
}
