/// The observable state of a runtime, as one value.
struct RuntimeSnapshot: Sendable {
    /// The properties observers are told about.
    struct Changes: OptionSet, Sendable {
        let rawValue: UInt16
        static let messages = Changes(rawValue: 1 << 0)
        static let connectionState = Changes(rawValue: 1 << 1)
        static let isTurnInProgress = Changes(rawValue: 1 << 2)
        static let activeTurnID = Changes(rawValue: 1 << 3)
        static let assistantDraft = Changes(rawValue: 1 << 4)
        static let toolCallChecklist = Changes(rawValue: 1 << 5)
        static let toolCallBatchState = Changes(rawValue: 1 << 6)
        static let toolCallBatches = Changes(rawValue: 1 << 7)
        static let executionLog = Changes(rawValue: 1 << 8)
        static let lastError = Changes(rawValue: 1 << 9)
        static let currentLocale = Changes(rawValue: 1 << 10)
        static let chatTitle = Changes(rawValue: 1 << 11)
        static let messagePlaceholder = Changes(rawValue: 1 << 12)
        static let sessionID = Changes(rawValue: 1 << 13)
    }

    /// What changed since the runtime last told observers: each property marks itself when it gets a different
    /// value (an array whenever it is modified, so no array is compared or copied).
    var changes: Changes = []
    var messages: [ResolveKitChatMessage] = [] { didSet { changes.insert(.messages) } }
    var connectionState = ResolveKitConnectionState.idle {
        didSet { if connectionState != oldValue { changes.insert(.connectionState) } }
    }
    var isTurnInProgress = false { didSet { if isTurnInProgress != oldValue { changes.insert(.isTurnInProgress) } } }
    var activeTurnID: String? { didSet { if activeTurnID != oldValue { changes.insert(.activeTurnID) } } }
    var assistantDraft: String? { didSet { if assistantDraft != oldValue { changes.insert(.assistantDraft) } } }
    var toolCallChecklist: [ToolCallChecklistItem] = [] { didSet { changes.insert(.toolCallChecklist) } }
    var toolCallBatchState = ToolCallChecklistBatch.State.idle {
        didSet { if toolCallBatchState != oldValue { changes.insert(.toolCallBatchState) } }
    }
    var toolCallBatches: [ToolCallChecklistBatch] = [] { didSet { changes.insert(.toolCallBatches) } }
    var executionLog = RecentLines(capacity: Self.maxLogLines) { didSet { changes.insert(.executionLog) } }
    var lastError: ResolveKitError? { didSet { if lastError != oldValue { changes.insert(.lastError) } } }
    var currentLocale = "en" { didSet { if currentLocale != oldValue { changes.insert(.currentLocale) } } }
    var chatTitle = "Support Chat" { didSet { if chatTitle != oldValue { changes.insert(.chatTitle) } } }
    var messagePlaceholder = "Message" {
        didSet { if messagePlaceholder != oldValue { changes.insert(.messagePlaceholder) } }
    }
    var sessionID: String? { didSet { if sessionID != oldValue { changes.insert(.sessionID) } } }
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
