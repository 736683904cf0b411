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

    /// The error line for a turn that could not be asked or did not end: the runtime's reason in words, its
    /// `code` (`state_store`, `turn_timed_out`, …) and whether sending the line again later may work (`retryable`).
    /// The tool calls the turn made before it stopped go with it. A user another replica serves is answered with
    /// `"code": "key_owned_elsewhere"`, the `owner` replica's name and, when known, `retry_after_ms` (how long
    /// its lease runs without a renewal), so a router sends the line there.
    static func failure(_ error: ResolveKitError, id: JSONValue?) -> ServiceResponse {
        var response = words(for: error, id: id)
        response.fields["code"] = .string(error.code.rawValue)
        response.fields["retryable"] = .bool(error.isRetryable)
        return response
    }

    private static func words(for error: ResolveKitError, id: JSONValue?) -> ServiceResponse {
        let calls = error.turnSoFar.map { $0.toolCalls.map(ToolCall.init) }
        switch error.code {
        case .keyOwnedElsewhere:
            var response = ServiceResponse.error(id: id, "another replica serves this user: \(error.message)")
            response.fields["code"] = .string(error.code.rawValue)
            if let owner = error.keyOwner {
                response.fields["owner"] = .string(owner.replica)
                if let remaining = owner.leaseRemaining {
                    let milliseconds = remaining.components.seconds * 1000
                        + remaining.components.attoseconds / 1_000_000_000_000_000
                    response.fields["retry_after_ms"] = .number(Double(milliseconds))
                }
            }
            return response
        case .cancelled: return .error(id: id, "the service is shutting down; the turn did not finish", toolCalls: calls)
        case .turnTimedOut: return .error(id: id, "no answer in time: \(error.message)", toolCalls: calls)
        case .invalidMessage: return .error(id: id, error.message)
        default: return .error(id: id, "the message was not answered: \(error.message)", toolCalls: calls)
        }
    }
}
