import Foundation
import ResolveKit
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

    /// Runs one call. Unknown tools and malformed params are protocol errors; invalid arguments, a decline, a
    /// timeout and the function's own error are results with `isError`, in words the model can act on.
    func callTool(_ params: JSONObject, id: JSONValue, _ era: Era, _ output: MCPOutput) async
        -> Result<JSONObject, JSONRPCError>
    {
        guard let name = params["name"]?.stringValue else {
            return .failure(.invalidParams("tools/call needs name, a string"))
        }
        guard let entry = registry.entry(named: name) else { return .failure(.invalidParams("Unknown tool: \(name)")) }
        let arguments = params["arguments"] ?? [:]
        let timeout = entry.function.resolveKitTimeoutSeconds ?? 30
        let call = PendingToolCall(
            callID: "mcp-" + (id.stringValue ?? id.serialized()), turnID: "mcp", functionName: name,
            arguments: arguments,
            humanDescription: "An MCP client calls \(name).",
            requiresApproval: entry.function.resolveKitRequiresApproval,
            timeoutSeconds: timeout, receivedAt: configuration.clock.elapsed)
        let log = MCPLog(output: output, level: era.logLevel, name: name)
        let audit = AuditRecords(trail: configuration.auditTrail) { [logger = configuration.logger] in
            logger.error("\($0)")
        }
        let allNames = Set(registry.functionNames)
        var prepared: (function: any AnyResolveKitFunction.Type, arguments: JSONObject)
        switch dispatcher.prepare(call, allowedNames: allNames) {
        case .failure(let error):
            audit.outcome(call, sessionID: "mcp", .failure(error), duration: nil)
            return .success(Self.result(.failure(error), era))
        case .success(let checked):
            prepared = checked
        }
        var effective = call
        if call.requiresApproval {
            let decision = await approve(call)
            audit.decision(call, sessionID: "mcp", batchID: 0, decision)
            switch decision.verdict {
            case .approve, .attributed:
                break
            case .approveEdited(let edited):
                effective.arguments = edited
                guard case .success(let checked) = dispatcher.prepare(effective, allowedNames: allNames) else {
                    return .success(Self.result(.failure(.invalidArguments("The edited arguments are invalid")), era))
                }
                prepared = checked
            case .decline(let reason):
                let error = ResolveKitFunctionError.declined(reason ?? "User denied action")
                log.send(.warning, "\(name) was declined: \(error.message)")
                audit.outcome(call, sessionID: "mcp", .failure(error), duration: nil)
                return .success(Self.result(.failure(error), era))
            }
        } else {
            audit.decision(
                call, sessionID: "mcp", batchID: 0,
                .attributed(.approve, by: .automatic(reason: "the function needs no approval")))
        }
        let started = configuration.clock.elapsed
        var outcome = await dispatcher.start(
            prepared.function, arguments: prepared.arguments, call: effective, sessionID: "mcp",
            deadline: configuration.clock.elapsed + .seconds(timeout),
            progress: Self.progressReporter(params, output)
        ).outcome()
        if effective.arguments != call.arguments { outcome = outcome.noting(editedArguments: effective.arguments) }
        if Task.isCancelled, state.withLock({ $0.shuttingDown }) {
            outcome = .failure(.cancelled("The server is shutting down; the call was cancelled before it finished"))
        }
        audit.outcome(call, sessionID: "mcp", outcome, duration: configuration.clock.elapsed - started)
        if case .failure(let error) = outcome { log.send(.warning, "\(name) failed: \(error.message)") }
        return .success(Self.result(outcome, era))
    }

    /// Asks the approver (and anyone through ``approvals``) until the call's timeout; no decision by then is a
    /// decline, and so is a cancelled request.
    private func approve(_ call: PendingToolCall) async -> ToolCallDecision {
        let deadline = call.serverDeadline
        let request = ToolApprovalRequest(
            batchID: 0, calls: [.init(call: call, timeRemaining: deadline - configuration.clock.elapsed)],
            sessionID: "mcp")
        approvals.open(request, deadlines: [call.callID: deadline], clock: configuration.clock, registry: registry)
        defer { approvals.close([call.callID], in: "mcp") }
        let (approvals, approver) = (approvals, configuration.approver)
        let outcome = await DeadlineRace<Void>(clock: configuration.clock).run(until: deadline) {
            await approvals.collect(request, from: approver)
        }
        switch outcome {
        case .cancelled:
            return .attributed(
                .decline(reason: "Cancelled while awaiting approval"),
                by: .automatic(reason: "the request was cancelled"))
        case .timedOut:
            approvals.expire([call.callID], in: "mcp")
        case .finished:
            break
        }
        return approvals.decision(for: call.callID, in: "mcp")
            ?? .attributed(.decline(reason: "Approval timed out"), by: .timeout)
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
            return ["content": [["type": "text", "text": .string(error.message)]], "isError": true]
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
