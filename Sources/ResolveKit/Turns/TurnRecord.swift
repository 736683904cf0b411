/// What the running turn has produced so far: its answer, usage and calls, for the `ask` waiting on it.
struct TurnRecord: Sendable {
    let turnID: String
    let requestID: String?
    var text = ""
    var usage: TokenUsage?
    private(set) var calls: [ToolCallChecklistItem] = []

    init(turnID: String, requestID: String?) {
        self.turnID = turnID
        self.requestID = requestID
    }

    /// Keeps the latest state of a call, in the order calls first appeared.
    mutating func update(_ item: ToolCallChecklistItem) {
        if let index = calls.firstIndex(where: { $0.id == item.id }) {
            calls[index] = item
        } else {
            calls.append(item)
        }
    }

    /// The turn's result with `ending`.
    func result(_ ending: ResolveKitTurnResult.Ending) -> ResolveKitTurnResult {
        ResolveKitTurnResult(turnID: turnID, ending: ending, text: text, toolCalls: calls, usage: usage)
    }
}
