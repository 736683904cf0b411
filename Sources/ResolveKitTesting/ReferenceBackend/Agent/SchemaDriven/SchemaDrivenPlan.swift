import Foundation

/// The default agent's plan for a message that names registered functions: one batch calling each of them with
/// arguments from its schema, then an answer that shows the results readably. A required argument the message
/// does not give and the schema cannot supply is asked for in words instead.
enum SchemaDrivenPlan {
    /// The rounds for a message that names functions; `nil` when it names none.
    static func rounds(for context: AgentContext) -> [AgentScript.Round]? {
        rounds(calling: FunctionMatcher(tools: context.tools).match(context.userText), in: context)
    }

    /// The rounds for a message that names functions by their exact names; `nil` when it names none.
    static func roundsForExactNames(in context: AgentContext) -> [AgentScript.Round]? {
        rounds(calling: FunctionMatcher(tools: context.tools).exactlyNamed(context.userText), in: context)
    }

    /// One batch of the calls whose arguments the message gives, then an answer with a line for each and the
    /// question for each call it could not make.
    static func rounds(calling tools: [AgentContext.Tool], in context: AgentContext) -> [AgentScript.Round]? {
        guard !tools.isEmpty else { return nil }
        let calls = tools.map {
            AgentScript.ToolCall($0.name, humanDescription: sentence($0.name), argumentsFromMessage: true)
        }
        let (running, questions) = split(calls, in: context)
        guard !running.isEmpty else { return [.text(questions.joined(separator: "\n"))] }
        let lines =
            running.count == 1
            ? AgentScript.doneTemplate
            : "Done.\n" + running.indices.map { "The {name\($0 + 1)} returned \"{result\($0 + 1)}\"." }
                .joined(separator: "\n")
        return [.toolCalls(running), .text(([lines] + questions).joined(separator: "\n"))]
    }

    /// A round with its schema-driven arguments filled in; a tool round whose required arguments cannot be found
    /// becomes a question naming them.
    static func resolve(_ round: AgentScript.Round, in context: AgentContext) -> AgentScript.Round {
        guard case .toolCalls(let calls) = round, calls.contains(where: \.argumentsFromMessage) else { return round }
        let (resolved, questions) = split(calls, in: context)
        guard resolved.isEmpty, !questions.isEmpty else { return .toolCalls(resolved) }
        return .text(questions.joined(separator: "\n"))
    }

    /// The calls with their schema-driven arguments filled in, and a question for each call whose required
    /// arguments the message does not give.
    private static func split(
        _ calls: [AgentScript.ToolCall], in context: AgentContext
    ) -> (resolved: [AgentScript.ToolCall], questions: [String]) {
        var resolved: [AgentScript.ToolCall] = []
        var questions: [String] = []
        for var call in calls {
            guard call.argumentsFromMessage, let tool = context.tools.first(where: { $0.name == call.functionName })
            else {
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
                let needed = missing.names.joined(separator: " and ")
                questions.append("To run \(tool.name) I need \(needed); say it like \"\(example)\".")
            }
        }
        return (resolved, questions)
    }

    static func sentence(_ name: String) -> String {
        "I will " + name.replacingOccurrences(of: "_", with: " ") + " for you."
    }
}
