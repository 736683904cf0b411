public import ResolveKitCore

/// The spans of one turn, as the runtime starts them (names and attributes of OpenTelemetry's GenAI, MCP and HTTP
/// conventions):
///
/// ```
/// invoke_agent                       (client)   the turn; gen_ai.conversation.id, usage tokens
/// ├── POST                           (client)   each backend request; http.*, url.full
/// └── execute_tool read_log_tail     (internal) a call; gen_ai.tool.name, gen_ai.tool.call.id, error.type
///     ├── approval read_log_tail     (internal) waiting for a decision; resolvekit.approval.decided_by
///     ├── run read_log_tail          (internal) the function itself
///     └── POST                       (client)   the result's delivery
/// ```
extension Tracer {
    /// A turn of the agent: `invoke_agent` (`invoke_agent {agent}` when the host names its agent), kind client.
    /// - Parameters:
    ///   - sessionID: The backend session (`gen_ai.conversation.id`); empty when not known yet (set the attribute
    ///     once it is).
    ///   - requestID: The turn's client request id.
    ///   - agentName: The agent's name, when the host gives one.
    ///   - parent: The host's context (a `traceparent` passed into `ask`), or none.
    public func startTurn(
        sessionID: String, requestID: String, agentName: String? = nil, parent: SpanParent = .root
    ) -> Span {
        var attributes: [SpanAttribute] = [
            SpanAttribute(SemanticAttributes.genAIOperationName, "invoke_agent"),
            SpanAttribute(SemanticAttributes.genAIProviderName, .string(ResolveKitMetrics.providerName)),
            SpanAttribute(SemanticAttributes.requestID, .string(requestID)),
        ]
        if !sessionID.isEmpty {
            attributes.append(SpanAttribute(SemanticAttributes.genAIConversationID, .string(sessionID)))
        }
        if let agentName { attributes.append(SpanAttribute(SemanticAttributes.genAIAgentName, .string(agentName))) }
        let name = agentName.map { "invoke_agent \($0)" } ?? "invoke_agent"
        return startSpan(name, kind: .client, parent: parent, attributes: attributes)
    }

    /// A tool call, from its arrival to its outcome: `execute_tool {function}`, kind internal.
    /// - Parameter startTime: When the call arrived, in nanoseconds since the Unix epoch; now by default.
    public func startToolCall(function: String, callID: String, parent: SpanParent, startTime: UInt64? = nil) -> Span {
        startSpan(
            "execute_tool \(function)", kind: .internal, parent: parent,
            attributes: [
                SpanAttribute(SemanticAttributes.genAIOperationName, "execute_tool"),
                SpanAttribute(SemanticAttributes.genAIToolName, .string(function)),
                SpanAttribute(SemanticAttributes.genAIToolCallID, .string(callID)),
                SpanAttribute(SemanticAttributes.genAIToolType, "function"),
            ], startTime: startTime)
    }

    /// A call's wait for a decision: `approval {function}`, a child of the call's span.
    public func startApproval(function: String, call: Span) -> Span {
        startSpan("approval \(function)", kind: .internal, parent: .span(call))
    }

    /// A function's run: `run {function}`, a child of the call's span. Its context is what the function sees.
    public func startFunctionRun(function: String, call: Span) -> Span {
        startSpan(
            "run \(function)", kind: .internal, parent: .span(call),
            attributes: [SpanAttribute(SemanticAttributes.genAIToolName, .string(function))])
    }

    /// An HTTP request to the backend: `{METHOD}`, kind client, with `http.request.method`, `url.full` (without
    /// credentials), `server.address`, `server.port` and, for a retry, `http.request.resend_count`.
    public func startHTTPRequest(method: String, url: String, resendCount: Int = 0, parent: SpanParent) -> Span {
        var attributes = [
            SpanAttribute(SemanticAttributes.httpRequestMethod, .string(method)),
            SpanAttribute(SemanticAttributes.urlFull, .string(EndpointURL.redacted(url))),
        ]
        if let endpoint = try? EndpointURL(parsing: url) {
            attributes.append(SpanAttribute(SemanticAttributes.serverAddress, .string(endpoint.host)))
            attributes.append(SpanAttribute(SemanticAttributes.serverPort, .int(Int64(endpoint.port))))
        }
        if resendCount > 0 {
            attributes.append(SpanAttribute(SemanticAttributes.httpRequestResendCount, .int(Int64(resendCount))))
        }
        return startSpan(method, kind: .client, parent: parent, attributes: attributes)
    }

    /// An MCP request the server handles: `{method} {tool}` (`tools/call read_log_tail`), kind server, per the MCP
    /// semantic conventions; `tools/call` also carries `gen_ai.operation.name = execute_tool`.
    /// - Parameters:
    ///   - method: The JSON-RPC method.
    ///   - toolName: The tool of a `tools/call`.
    ///   - requestID: The JSON-RPC id, as text.
    ///   - protocolVersion: The negotiated MCP revision.
    ///   - parent: The client's `params._meta.traceparent`, through ``SpanParent/incoming(traceparent:tracestate:)``.
    public func startMCPRequest(
        method: String, toolName: String? = nil, requestID: String? = nil, protocolVersion: String? = nil,
        parent: SpanParent
    ) -> Span {
        var attributes = [
            SpanAttribute(SemanticAttributes.mcpMethodName, .string(method)),
            SpanAttribute(SemanticAttributes.networkTransport, "pipe"),
        ]
        if let toolName {
            attributes.append(SpanAttribute(SemanticAttributes.genAIToolName, .string(toolName)))
            attributes.append(SpanAttribute(SemanticAttributes.genAIOperationName, "execute_tool"))
        }
        if let requestID { attributes.append(SpanAttribute(SemanticAttributes.jsonRPCRequestID, .string(requestID))) }
        if let protocolVersion {
            attributes.append(SpanAttribute(SemanticAttributes.mcpProtocolVersion, .string(protocolVersion)))
        }
        let name = toolName.map { "\(method) \($0)" } ?? method
        return startSpan(name, kind: .server, parent: parent, attributes: attributes)
    }
}

extension Span {
    /// Ends a turn's span: its ending, the server's turn id and token usage; `error.type` unless it was answered
    /// or handed off.
    public func finishTurn(ending: ResolveKitMetrics.TurnEnding, turnID: String?, usage: TokenUsage?) {
        setAttribute(SemanticAttributes.turnEnding, .string(ending.rawValue))
        if let turnID { setAttribute(SemanticAttributes.turnID, .string(turnID)) }
        if let usage {
            setAttribute(SemanticAttributes.genAIUsageInputTokens, .int(Int64(usage.promptTokens)))
            setAttribute(SemanticAttributes.genAIUsageOutputTokens, .int(Int64(usage.completionTokens)))
        }
        let error = ResolveKitMetrics.OperationError(ending)
        if error != .none { recordError(type: error.rawValue, description: "The turn ended: \(ending.rawValue)") }
        end()
    }

    /// Ends a call's span with its outcome; anything but success sets `error.type` (`tool_error`, `declined`,
    /// `timeout`, `refused`) and an error status.
    public func finishToolCall(outcome: ResolveKitMetrics.ToolOutcome) {
        setAttribute(SemanticAttributes.toolOutcome, .string(outcome.rawValue))
        let error = ResolveKitMetrics.OperationError(outcome)
        if error != .none { recordError(type: error.rawValue, description: "The call ended: \(outcome.rawValue)") }
        end()
    }

    /// Ends an approval span with who decided and whether the call may run.
    public func finishApproval(decidedBy: ResolveKitMetrics.Decider, approved: Bool) {
        setAttribute(SemanticAttributes.approvalDecidedBy, .string(decidedBy.rawValue))
        setAttribute(SemanticAttributes.approvalApproved, .bool(approved))
        end()
    }

    /// Ends an HTTP request's span with the answer's status: 4xx and 5xx set `error.type` to the status.
    public func finishHTTPRequest(status: Int) {
        setAttribute(SemanticAttributes.httpResponseStatusCode, .int(Int64(status)))
        if status >= 400 { recordError(type: String(status), description: "HTTP \(status)") }
        end()
    }

    /// Ends an HTTP request's span that got no answer; `errorType` is a bounded class such as `timed_out`.
    public func finishHTTPRequest(errorType: String) {
        recordError(type: errorType)
        end()
    }

    /// Ends an MCP request's span: a tool error or a JSON-RPC error sets `error.type` (and
    /// `rpc.response.status_code` for the latter).
    public func finishMCPRequest(outcome: ResolveKitMetrics.MCPOutcome) {
        switch outcome {
        case .ok:
            break
        case .toolError:
            recordError(type: outcome.rawValue, description: "The tool reported an error")
        default:
            setAttribute(SemanticAttributes.rpcResponseStatusCode, .string(outcome.rawValue))
            recordError(type: outcome.rawValue, description: "JSON-RPC error \(outcome.rawValue)")
        }
        end()
    }
}
