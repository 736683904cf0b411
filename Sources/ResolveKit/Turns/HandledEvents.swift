/// Remembers which turn-level events were already acted on, by what they are rather than by event id: event ids
/// restart when an in-memory backend restarts (§5.5), so a replay after a cursor reset can carry new ids for old
/// events. Bounded: the oldest keys are forgotten first.
struct HandledEvents {
    private var keys: Set<String> = []
    private var order: [String] = []
    let capacity: Int

    init(capacity: Int = 2048) {
        self.capacity = capacity
    }

    /// The identity of an event that must not be acted on twice; `nil` for events handled elsewhere (tool calls
    /// are deduplicated by the call journal) or that are harmless to repeat.
    static func key(for envelope: EventEnvelope, _ event: ResolveKitEvent) -> String? {
        switch event {
        case .turnComplete, .error, .sessionEscalated, .feedbackRequested:
            return envelope.type + "|" + envelope.turnID
        case .humanMessage(let message):
            return envelope.type + "|" + (message.messageID.isEmpty ? envelope.eventID : message.messageID)
        case .toolCallRequest, .assistantTextDelta, .unknown:
            return nil
        }
    }

    /// The key recorded when a turn ends, however the runtime learned it (an event, or the history).
    static func endedTurn(_ turnID: String) -> String { "ended|" + turnID }

    /// The key of a turn's `turn_complete` event.
    static func turnCompleted(_ turnID: String) -> String { TurnComplete.eventType + "|" + turnID }

    func contains(_ key: String) -> Bool { keys.contains(key) }

    /// Records `key`; returns `false` when it was already there.
    mutating func insert(_ key: String) -> Bool {
        guard keys.insert(key).inserted else { return false }
        order.append(key)
        if order.count > capacity {
            let excess = order.count - capacity
            for old in order.prefix(excess) { keys.remove(old) }
            order.removeFirst(excess)
        }
        return true
    }
}
