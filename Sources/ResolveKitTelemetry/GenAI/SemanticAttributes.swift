/// The attribute keys of OpenTelemetry's semantic conventions the runtime's spans use (GenAI, MCP, HTTP, errors),
/// and the few of its own under `resolvekit.`.
public enum SemanticAttributes {
    /// `gen_ai.operation.name`: `invoke_agent` or `execute_tool`.
    public static let genAIOperationName = "gen_ai.operation.name"
    /// `gen_ai.provider.name`: `resolvekit`.
    public static let genAIProviderName = "gen_ai.provider.name"
    /// `gen_ai.agent.name`: the agent's name, when the host gives one.
    public static let genAIAgentName = "gen_ai.agent.name"
    /// `gen_ai.conversation.id`: the backend session.
    public static let genAIConversationID = "gen_ai.conversation.id"
    /// `gen_ai.tool.name`: the function.
    public static let genAIToolName = "gen_ai.tool.name"
    /// `gen_ai.tool.call.id`: the call id the backend gave.
    public static let genAIToolCallID = "gen_ai.tool.call.id"
    /// `gen_ai.tool.type`: `function` (a tool the client runs).
    public static let genAIToolType = "gen_ai.tool.type"
    /// `gen_ai.tool.description`: the function's description.
    public static let genAIToolDescription = "gen_ai.tool.description"
    /// `gen_ai.usage.input_tokens`.
    public static let genAIUsageInputTokens = "gen_ai.usage.input_tokens"
    /// `gen_ai.usage.output_tokens`.
    public static let genAIUsageOutputTokens = "gen_ai.usage.output_tokens"
    /// `error.type`: a bounded class of error (`timeout`, `declined`, `503`, `tool_error`).
    public static let errorType = "error.type"

    /// `mcp.method.name`, e.g. `tools/call`.
    public static let mcpMethodName = "mcp.method.name"
    /// `mcp.session.id`.
    public static let mcpSessionID = "mcp.session.id"
    /// `mcp.protocol.version`, e.g. `2025-06-18`.
    public static let mcpProtocolVersion = "mcp.protocol.version"
    /// `jsonrpc.request.id`.
    public static let jsonRPCRequestID = "jsonrpc.request.id"
    /// `rpc.response.status_code`: a JSON-RPC error code, as text.
    public static let rpcResponseStatusCode = "rpc.response.status_code"
    /// `network.transport`: `pipe` for stdio.
    public static let networkTransport = "network.transport"

    /// `http.request.method`.
    public static let httpRequestMethod = "http.request.method"
    /// `http.response.status_code`.
    public static let httpResponseStatusCode = "http.response.status_code"
    /// `http.request.resend_count`: how many times the request was sent before this one.
    public static let httpRequestResendCount = "http.request.resend_count"
    /// `url.full`, without any `user:password@`.
    public static let urlFull = "url.full"
    /// `server.address`.
    public static let serverAddress = "server.address"
    /// `server.port`.
    public static let serverPort = "server.port"

    /// `resolvekit.session.id`: the backend session a span belongs to.
    public static let sessionID = "resolvekit.session.id"
    /// `resolvekit.request.id`: the client request id of a turn.
    public static let requestID = "resolvekit.request.id"
    /// `resolvekit.turn.id`: the server's turn id.
    public static let turnID = "resolvekit.turn.id"
    /// `resolvekit.turn.ending`: how a turn ended.
    public static let turnEnding = "resolvekit.turn.ending"
    /// `resolvekit.tool.outcome`: how a call ended.
    public static let toolOutcome = "resolvekit.tool.outcome"
    /// `resolvekit.approval.decided_by`: who decided a call.
    public static let approvalDecidedBy = "resolvekit.approval.decided_by"
    /// `resolvekit.approval.approved`: whether the call may run.
    public static let approvalApproved = "resolvekit.approval.approved"
}
