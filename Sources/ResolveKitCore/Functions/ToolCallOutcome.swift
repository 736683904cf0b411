/// How a tool call ended: what is kept in the call journal, posted to the backend, shown in the checklist and
/// written to the audit trail. An error keeps its ``ResolveKitFunctionError/code`` all the way.
package enum ToolCallOutcome: Sendable, Hashable {
    /// The function returned this value.
    case success(JSONValue)
    /// The call produced an error result: refused, declined, invalid, failed, timed out or cancelled.
    case failure(ResolveKitFunctionError)

    /// The error, when the call did not succeed.
    package var failure: ResolveKitFunctionError? {
        if case .failure(let error) = self { return error }
        return nil
    }
}

extension ToolCallOutcome {
    /// The outcome of a call that ran with arguments a person changed, saying so to the model: a result becomes
    /// `{"result": …, "arguments": …, "note": …}`, an error's message says it too.
    package func noting(editedArguments arguments: JSONValue) -> ToolCallOutcome {
        let note = "A person changed the arguments before this call ran; it ran with the arguments shown."
        switch self {
        case .success(let value):
            return .success(.object(["result": value, "arguments": arguments, "note": .string(note)]))
        case .failure(let error):
            let changed = "A person changed the arguments before this call ran, to "
                + String(decoding: arguments.serializedBytes(options: .sortedKeys), as: UTF8.self) + ". "
            return .failure(ResolveKitFunctionError(code: error.code, message: changed + error.message))
        }
    }
}
