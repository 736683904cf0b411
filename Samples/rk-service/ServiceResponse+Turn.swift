import ResolveKit

extension ServiceResponse {
    /// The answer line for a finished turn: `ok` with the answer when the agent answered, an error with its text
    /// when the agent failed or handed the conversation off; the tool calls either way.
    static func turn(_ result: ResolveKitTurnResult, id: JSONValue?) -> ServiceResponse {
        let calls = result.toolCalls.map(ToolCall.init)
        guard result.ending == .answered else {
            let reason = result.text.isEmpty ? "the agent ended the turn without an answer" : result.text
            return .error(id: id, reason, toolCalls: calls)
        }
        guard !result.text.isEmpty else {
            return .error(id: id, "the agent ended the turn without an answer", toolCalls: calls)
        }
        return .answer(id: id, text: result.text, toolCalls: calls)
    }

    /// The error line for a turn that could not be asked or did not end: the runtime's reason in words.
    static func failure(_ error: ResolveKitError, id: JSONValue?) -> ServiceResponse {
        switch error.code {
        case .cancelled: .error(id: id, "the service is shutting down; the turn did not finish")
        case .turnTimedOut: .error(id: id, "no answer in time: \(error.message)")
        case .invalidMessage: .error(id: id, error.message)
        default: .error(id: id, "the message was not answered: \(error.message)")
        }
    }
}
