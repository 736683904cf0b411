/// The observable state of a runtime, as one value.
struct RuntimeSnapshot: Sendable {
    var messages: [ResolveKitChatMessage] = []
    var connectionState = ResolveKitConnectionState.idle
    var isTurnInProgress = false
    var activeTurnID: String?
    var assistantDraft: String?
    var toolCallChecklist: [ToolCallChecklistItem] = []
    var toolCallBatchState = ResolveKitToolCallBatchState.idle
    var toolCallBatches: [ToolCallChecklistBatch] = []
    var executionLog: [String] = []
    var lastError: String?
    var currentLocale = "en"
    var chatTitle = "Support Chat"
    var messagePlaceholder = "Message"
    var sessionID: String?

    /// The most transcript messages and log lines kept in memory; older ones are dropped first.
    static let maxMessages = 1000
    static let maxLogLines = 500
    static let maxBatches = 200

    mutating func appendMessage(_ message: ResolveKitChatMessage) {
        messages.append(message)
        if messages.count > Self.maxMessages { messages.removeFirst(messages.count - Self.maxMessages) }
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

    /// Adds a call that needs no approval to the checklist, starting a fresh one when the last batch is done.
    mutating func addImmediate(_ item: ToolCallChecklistItem) {
        if toolCallBatchState == .completed || toolCallBatchState == .idle { toolCallChecklist = [] }
        toolCallChecklist.append(item)
        toolCallBatchState = Self.batchState(of: toolCallChecklist)
    }

    mutating func startBatch(_ batch: ToolCallChecklistBatch) {
        toolCallChecklist = batch.items
        toolCallBatches.append(batch)
        if toolCallBatches.count > Self.maxBatches { toolCallBatches.removeFirst() }
        toolCallBatchState = Self.batchState(of: toolCallChecklist)
    }

    static func batchState(of items: [ToolCallChecklistItem]) -> ResolveKitToolCallBatchState {
        if items.isEmpty { return .idle }
        if items.contains(where: { $0.status == .pendingApproval }) { return .awaitingApproval }
        if items.contains(where: { $0.status == .running }) { return .running }
        return .completed
    }
}
