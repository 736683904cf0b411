import ResolveKit

/// What one turn produced, built from the runtime's events: a pure fold, so it is tested without a runtime.
struct TurnTranscript {
    /// How following the turn ended.
    enum Ending: Equatable {
        /// The turn ended (terminal event or reconciled from the history).
        case ended
        /// The runtime stopped being connected: failed or blocked.
        case connectionLost(String)
    }

    let turnID: String
    private(set) var answers: [String] = []
    private(set) var notices: [String] = []
    private(set) var calls: [(id: String, call: ServiceResponse.ToolCall)] = []
    private(set) var ending: Ending?

    init(turnID: String) {
        self.turnID = turnID
    }

    /// Takes one event; returns `true` once the turn is over.
    mutating func apply(_ event: ResolveKitRuntimeEvent) -> Bool {
        switch event {
        case .messageAppended(let message):
            switch message.role {
            case .assistant, .humanAgent: answers.append(message.text)
            case .system: notices.append(message.text)
            case .user: break
            }
        case .toolBatchAwaitingApproval(let batch):
            for item in batch.items { record(id: item.id, ServiceResponse.ToolCall(item)) }
        case .toolCallUpdated(let item):
            record(id: item.id, ServiceResponse.ToolCall(item))
        case .turnEnded(let endedID) where endedID == nil || endedID == turnID:
            ending = .ended
        case .connectionStateChanged(.failed):
            ending = .connectionLost("the connection to the backend failed")
        case .connectionStateChanged(.blocked(let reason)):
            ending = .connectionLost("the runtime is blocked: \(reason)")
        default:
            break
        }
        return ending != nil
    }

    /// The answer line for this turn as it stands; `interruption` says why it was not followed to its end.
    func response(id: JSONValue?, interruption: String?) -> ServiceResponse {
        let toolCalls = calls.map(\.call)
        switch ending {
        case .ended? where !answers.isEmpty:
            return .answer(id: id, text: answers.joined(separator: "\n"), toolCalls: toolCalls)
        case .ended?:
            let reason =
                notices.isEmpty ? "the agent ended the turn without an answer" : notices.joined(separator: "\n")
            return .error(id: id, reason, toolCalls: toolCalls)
        case .connectionLost(let reason)?:
            return .error(id: id, reason, toolCalls: toolCalls)
        case nil:
            return .error(id: id, interruption ?? "the turn did not end", toolCalls: toolCalls)
        }
    }

    /// Keeps the latest state of call `id`, in the order calls first appeared.
    mutating func record(id: String, _ call: ServiceResponse.ToolCall) {
        if let index = calls.firstIndex(where: { $0.id == id }) {
            calls[index].call = call
        } else {
            calls.append((id, call))
        }
    }
}
