/// How a tool call ended, as reported to the backend.
package enum ToolCallOutcome: Sendable, Hashable {
    /// The function returned this value.
    case success(JSONValue)
    /// The call produced an error result: refused, declined, invalid, failed, timed out or cancelled.
    case failure(ResolveKitFunctionError)

    /// The wire form of the outcome.
    package var submissionOutcome: ToolResultSubmission.Outcome {
        switch self {
        case .success(let value): .success(value)
        case .failure(let error): .failure(error.message)
        }
    }
}
