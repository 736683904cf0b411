public import ResolveKitCore

/// A real model behind an OpenAI-compatible `/v1/chat/completions` endpoint, used instead of the script.
///
/// Each step is one non-streaming completion with the eligible functions as tools; tool calls become
/// `tool_call_request`s, text becomes the final answer, an empty reply ends the turn silently, and a failed call
/// becomes an `error` event as in the real backend (`chat_unavailable` for 401/402/403/429, else `llm_error`).
/// The HTTP transport is injected, so this module stays free of networking.
public struct OpenAICompatibleModel: AgentModel {
    /// Sends one POST: URL, headers and JSON body in; status and body out. Throwing means a transport failure.
    public typealias Send =
        @Sendable (_ url: String, _ headers: [(name: String, value: String)], _ body: [UInt8]) async throws
        -> (status: Int, body: [UInt8])

    /// The full URL of the completions endpoint.
    public var url: String
    /// The `model` field of the request.
    public var modelName: String
    /// Sent as `Authorization: Bearer <key>` when set.
    public var apiKey: String?
    /// The transport.
    public var send: Send

    /// Creates a model client.
    public init(url: String, modelName: String = "default", apiKey: String? = nil, send: @escaping Send) {
        self.url = url
        self.modelName = modelName
        self.apiKey = apiKey
        self.send = send
    }

    /// Asks the model for its next reply.
    public func nextRound(_ context: AgentContext) async -> AgentScript.Round {
        var headers = [(name: "Content-Type", value: "application/json")]
        if let apiKey { headers.append((name: "Authorization", value: "Bearer \(apiKey)")) }
        let reply: (status: Int, body: [UInt8])
        do {
            reply = try await send(url, headers, requestBody(context).serializedBytes(options: .sortedKeys))
        } catch {
            return Self.failure(status: nil)
        }
        guard (200..<300).contains(reply.status), let response = try? JSONValue(parsing: reply.body) else {
            return Self.failure(status: reply.status)
        }
        return Self.round(from: response)
    }

    /// The completion request for a step of the turn.
    public func requestBody(_ context: AgentContext) -> JSONValue {
        var system = "You are the support assistant of this app. Use the tools when they help answer the user."
        if let members = context.llmContext.objectValue, !members.isEmpty {
            system += " Context: " + context.llmContext.serialized(options: .sortedKeys)
        }
        var messages: [JSONValue] = [["role": "system", "content": .string(system)]]
        for message in context.history {
            messages.append([
                "role": .string(message.role == "user" ? "user" : "assistant"), "content": .string(message.content),
            ])
        }
        messages.append(["role": "user", "content": .string(context.userText)])
        for round in context.rounds {
            let calls: [JSONValue] = round.map { step in
                [
                    "id": .string(step.callID), "type": "function",
                    "function": [
                        "name": .string(step.functionName),
                        "arguments": .string(step.arguments.serialized(options: .sortedKeys)),
                    ],
                ]
            }
            messages.append(["role": "assistant", "content": .null, "tool_calls": .array(calls)])
            for step in round {
                messages.append(["role": "tool", "tool_call_id": .string(step.callID), "content": .string(step.result)])
            }
        }
        var body: JSONObject = ["model": .string(modelName), "messages": .array(messages), "stream": false]
        if !context.tools.isEmpty {
            body["tools"] = .array(
                context.tools.map { tool in
                    let empty = tool.parametersSchema.objectValue?.isEmpty ?? true
                    let parameters: JSONValue = empty ? ["type": "object", "properties": [:]] : tool.parametersSchema
                    return [
                        "type": "function",
                        "function": [
                            "name": .string(tool.name), "description": .string(tool.description),
                            "parameters": parameters,
                        ],
                    ]
                })
        }
        return .object(body)
    }

    /// Reads `choices[0].message`: tool calls first, then text, else an empty reply.
    public static func round(from response: JSONValue) -> AgentScript.Round {
        let message = response["choices"]?[0]?["message"]
        let calls = message?["tool_calls"]?.arrayValue ?? []
        if !calls.isEmpty {
            return .toolCalls(
                calls.compactMap { call in
                    guard let name = call["function"]?["name"]?.stringValue else { return nil }
                    let text = call["function"]?["arguments"]?.stringValue ?? "{}"
                    let arguments = (try? JSONValue(parsing: text)) ?? .object([:])
                    return AgentScript.ToolCall(name, arguments: arguments)
                })
        }
        if let text = message?["content"]?.stringValue, !text.isEmpty { return .text(text) }
        return .empty
    }

    private static func failure(status: Int?) -> AgentScript.Round {
        if let status, [401, 402, 403, 429].contains(status) {
            return .error(code: "chat_unavailable", message: "Chat is unavailable, try again later")
        }
        return .error(code: "llm_error", message: "Assistant is temporarily unavailable. Please try again.")
    }
}
