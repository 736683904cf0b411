import Foundation
import ResolveKitTelemetry
import ResolveKitTools
import Synchronization

/// `tools/list` and `tools/call`: the registry's schemas, and each call through validation, approval, the
/// function's deadline and cancellation, as a ResolveKit call goes.
extension MCPServer {
    /// One page of tools; the cursor is the offset of the next page.
    func listTools(_ params: JSONObject, _ era: Era) -> Result<JSONObject, JSONRPCError> {
        var start = 0
        if let cursor = params["cursor"] {
            guard let text = cursor.stringValue, let offset = Int(text), offset >= 0, offset <= registry.entries.count
            else {
                return .failure(.invalidParams("The cursor \(cursor.serialized()) is not one this server gave"))
            }
            start = offset
        }
        let end = min(registry.entries.count, start + configuration.pageSize)
        var result: JSONObject = [
            "tools": .array(
                registry.entries[start..<end].map { MCPToolDescription.json(for: $0, version: era.version) })
        ]
        if end < registry.entries.count { result["nextCursor"] = .string(String(end)) }
        return .success(result)
    }

    /// Runs one call through the tools core, as a ResolveKit call goes. Unknown tools and malformed params are
    /// protocol errors; invalid arguments, a decline, a timeout and the function's own error are results with
    /// `isError`, in words the model can act on.
    func callTool(_ params: JSONObject, id: JSONValue, _ era: Era, _ output: MCPOutput, trace: SpanParent) async
        -> Result<JSONObject, JSONRPCError>
    {
        guard let name = params["name"]?.stringValue else {
            return .failure(.invalidParams("tools/call needs name, a string"))
        }
        guard let entry = registry.entry(named: name) else { return .failure(.invalidParams("Unknown tool: \(name)")) }
        let timeout = entry.function.resolveKitTimeoutSeconds ?? 30
        let call = PendingToolCall(
            callID: ToolCallID("mcp-" + (id.stringValue ?? id.serialized())), turnID: "mcp", functionName: name,
            arguments: params["arguments"] ?? [:], humanDescription: "An MCP client calls \(name).",
            requiresApproval: entry.function.resolveKitRequiresApproval, timeoutSeconds: timeout,
            receivedAt: configuration.clock.elapsed)
        let log = MCPLog(output: output, level: era.logLevel, name: name)
        let progress = Self.progressReporter(params, output)
        let runner = ToolCallRunner(
            dispatcher: dispatcher, approvals: approvals, approver: configuration.approver,
            audit: AuditRecords(trail: configuration.auditTrail) { [logger = configuration.logger] in
                logger.error("\($0)")
            },
            control: control, runsSequentially: true, telemetry: toolTelemetry, progress: { _ in progress })
        // The approval's deadline is the call's timeout from its arrival; the function gets its whole timeout.
        let deadlines = ToolCallDeadlines(
            approval: { $0.serverDeadline }, run: { call, now in now + .seconds(call.timeoutSeconds) })
        let outcomes = await runner.run(
            ToolCallBatch(id: 0, calls: [call]), in: "mcp", allowedNames: Set(registry.functionNames),
            deadlines: deadlines, trace: ToolCallTrace(parent: { _ in trace }), report: { _ in })
        var outcome = outcomes[call.callID] ?? .failure(.cancelled("Cancelled before it finished"))
        // A call the shutdown cancelled says so; one that had failed already (its arguments, its approver) keeps why.
        if case .failure(let error) = outcome, error.code == .cancelled, Task.isCancelled,
            state.withLock({ $0.shuttingDown })
        {
            outcome = .failure(.cancelled("The server is shutting down; the call was cancelled before it finished"))
        }
        if case .failure(let error) = outcome {
            let what = error.code == .declined ? "was declined" : "failed"
            log.send(.warning, "\(name) \(what): \(error.message)")
        }
        return .success(Self.result(outcome, era))
    }

    /// The `tools/call` result: text for every client, and `structuredContent` where the revision has it.
    static func result(_ outcome: ToolCallOutcome, _ era: Era) -> JSONObject {
        switch outcome {
        case .success(let value):
            let text = value.stringValue ?? String(decoding: value.serializedBytes(options: .sortedKeys), as: UTF8.self)
            var result: JSONObject = ["content": [["type": "text", "text": .string(text)]], "isError": false]
            if era.version != "2025-03-26" {
                // Before 2026-07-28 structured content must be an object.
                result["structuredContent"] = value.objectValue != nil || era.isModern ? value : ["result": value]
            }
            return result
        case .failure(let error):
            // The error's code travels with its message, so a model (and a person reading the log) can tell a
            // timeout from a refusal from the function's own failure.
            let text = "\(error.message) [\(error.code)]"
            return ["content": [["type": "text", "text": .string(text)]], "isError": true]
        }
    }

    /// Sends `notifications/progress` for the request's progress token, when it carried one; values that do not
    /// grow are dropped, as the specification requires progress to increase.
    static func progressReporter(_ params: JSONObject, _ output: MCPOutput) -> (
        @Sendable (Double, Double?, String?) -> Void
    )? {
        guard let token = params["_meta"]?["progressToken"], token.stringValue != nil || token.intValue != nil else {
            return nil
        }
        let last = Mutex<Double?>(nil)
        return { progress, total, message in
            let grows = last.withLock { last -> Bool in
                guard last.map({ progress > $0 }) ?? true else { return false }
                last = progress
                return true
            }
            guard grows else { return }
            var params: JSONObject = ["progressToken": token, "progress": .number(progress)]
            if let total { params["total"] = .number(total) }
            if let message { params["message"] = .string(message) }
            output.notification("notifications/progress", params)
        }
    }
}

/// `notifications/message` for one request, at or above the level the client asked for.
struct MCPLog: Sendable {
    let output: MCPOutput
    let level: MCPLogLevel?
    let name: String

    func send(_ severity: MCPLogLevel, _ text: String) {
        guard let level, severity >= level else { return }
        output.notification(
            "notifications/message",
            ["level": .string(severity.rawValue), "logger": "resolvekit", "data": .string(text)])
    }
}

/// How a registered function looks in `tools/list`.
enum MCPToolDescription {
    /// Name, description, the schema rk-codegen generated, and hints derived from the registration: a function
    /// that needs no approval is read-only and idempotent; one that needs approval may change things.
    static func json(for entry: ResolveKitRegistry.Entry, version: String) -> JSONValue {
        let function = entry.function
        let gated = function.resolveKitRequiresApproval
        var annotations: JSONObject = [
            "readOnlyHint": .bool(!gated), "destructiveHint": .bool(gated), "idempotentHint": .bool(!gated),
            "openWorldHint": false,
        ]
        var tool: JSONObject = [
            "name": .string(entry.name), "description": .string(function.resolveKitDescription),
            "inputSchema": .object(function.resolveKitParametersSchema),
        ]
        if version != "2025-03-26" {
            annotations["title"] = .string(entry.name.replacingOccurrences(of: "_", with: " "))
            // Structured results and their schema exist from 2025-06-18 on.
            if let output = function.resolveKitOutputSchema { tool["outputSchema"] = .object(output) }
        }
        tool["annotations"] = .object(annotations)
        return .object(tool)
    }
}
