import ResolveKitTelemetry
import ResolveKitTools
import Synchronization

/// Each request measured and traced as the MCP semantic conventions say: its duration by method and error in
/// `mcp_server_operation_duration_seconds`, and a server span (`tools/call read_log_tail`) under the client's
/// `params._meta.traceparent`, the call's own spans under it.
extension MCPServer {
    /// Answers one request, counting and tracing it when the server has telemetry.
    func observed(method: String, params: JSONObject, id: JSONValue, _ output: MCPOutput) async
        -> Result<JSONObject, JSONRPCError>
    {
        guard toolTelemetry.isOn else {
            return await respond(method: method, params: params, id: id, output, trace: Self.clientParent(params))
        }
        let started = configuration.clock.elapsed
        let span = toolTelemetry.tracer.map { tracer in
            let meta = params["_meta"]?.objectValue
            return tracer.startMCPRequest(
                method: method, toolName: method == "tools/call" ? params["name"]?.stringValue : nil,
                requestID: id.stringValue ?? id.serialized(), protocolVersion: protocolVersion(of: params),
                parent: .incoming(
                    traceparent: meta?["traceparent"]?.stringValue, tracestate: meta?["tracestate"]?.stringValue))
        }
        let reply = await respond(
            method: method, params: params, id: id, output, trace: span.map { .span($0) } ?? Self.clientParent(params))
        let outcome: ResolveKitMetrics.MCPOutcome
        switch reply {
        case .success(let result): outcome = result["isError"] == true ? .toolError : .ok
        case .failure(let error): outcome = ResolveKitMetrics.MCPOutcome(jsonRPCCode: error.code)
        }
        toolTelemetry.metrics?.mcpRequestFinished(
            method: method, outcome: outcome, duration: configuration.clock.elapsed - started)
        span?.finishMCPRequest(outcome: outcome)
        return reply
    }

    /// The client's context, for calls when the server records no spans: the function still sees it.
    static func clientParent(_ params: JSONObject) -> SpanParent {
        let meta = params["_meta"]?.objectValue
        return .incoming(traceparent: meta?["traceparent"]?.stringValue, tracestate: meta?["tracestate"]?.stringValue)
    }

    /// The revision the request is answered in: the one it names, or the handshake's.
    private func protocolVersion(of params: JSONObject) -> String? {
        if let named = params["_meta"]?["io.modelcontextprotocol/protocolVersion"]?.stringValue { return named }
        return state.withLock { $0.legacyVersion }
    }
}
