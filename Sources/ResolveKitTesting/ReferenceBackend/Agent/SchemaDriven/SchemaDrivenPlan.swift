import Foundation

/// The default agent's plan for a message that names registered functions: one batch calling each of them with
/// arguments from its schema, then an answer that shows the results readably. A required argument the message
/// does not give and the schema cannot supply is asked for in words instead.
enum SchemaDrivenPlan {
    /// The rounds for a message that names functions; `nil` when it names none.
    static func rounds(for context: AgentContext) -> [AgentScript.Round]? {
        rounds(calling: FunctionMatcher(tools: context.tools).match(context.userText))
    }

    /// The rounds for a message that names functions by their exact names; `nil` when it names none.
    static func roundsForExactNames(in context: AgentContext) -> [AgentScript.Round]? {
        rounds(calling: FunctionMatcher(tools: context.tools).exactlyNamed(context.userText))
    }

    private static func rounds(calling tools: [AgentContext.Tool]) -> [AgentScript.Round]? {
        guard !tools.isEmpty else { return nil }
        let calls = tools.map { AgentScript.ToolCall($0.name, humanDescription: sentence($0.name), argumentsFromMessage: true) }
        let answer =
            calls.count == 1
            ? AgentScript.doneTemplate
            : "Done.\n" + calls.indices.map { "The {name\($0 + 1)} returned \"{result\($0 + 1)}\"." }.joined(separator: "\n")
        return [.toolCalls(calls), .text(answer)]
    }

    /// A round with its schema-driven arguments filled in; a tool round whose required arguments cannot be found
    /// becomes a question naming them.
    static func resolve(_ round: AgentScript.Round, in context: AgentContext) -> AgentScript.Round {
        guard case .toolCalls(let calls) = round, calls.contains(where: \.argumentsFromMessage) else { return round }
        var resolved: [AgentScript.ToolCall] = []
        var questions: [String] = []
        for var call in calls {
            guard call.argumentsFromMessage, let tool = context.tools.first(where: { $0.name == call.functionName }) else {
                resolved.append(call)
                continue
            }
            // The function's own name is not one of its arguments ("list_directory /tmp" lists /tmp).
            let text = context.userText.replacingOccurrences(of: tool.name, with: " ", options: .caseInsensitive)
            switch SchemaArguments.build(schema: tool.parametersSchema, text: text) {
            case .success(let arguments):
                call.arguments = arguments
                resolved.append(call)
            case .failure(let missing):
                let example = missing.names.map { "\($0): …" }.joined(separator: ", ")
                questions.append(
                    "To run \(tool.name) I need \(missing.names.joined(separator: " and ")); say it like \"\(example)\".")
            }
        }
        guard resolved.isEmpty, !questions.isEmpty else { return .toolCalls(resolved) }
        return .text(questions.joined(separator: "\n"))
    }

    static func sentence(_ name: String) -> String {
        "I will " + name.replacingOccurrences(of: "_", with: " ") + " for you."
    }
}
