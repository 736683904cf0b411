import ResolveKit

extension RequestHandler {
    /// Answers an approval command. A decision names who made it: the uid and pid the kernel reports for the
    /// socket's peer, and the terminal the client says it runs in; on stdin, the service's own input.
    func answer(_ command: ApprovalCommand, id: JSONValue?, from incoming: IncomingLine?, terminal: String?) async
        -> ServiceResponse
    {
        let approvals = host.approvals
        let decider: ToolCallDecision.Decider =
            incoming?.peer.map { .person(uid: $0.uid, pid: $0.pid, terminal: terminal) } ?? .host("rk-service stdin")
        do throws(ResolveKitError) {
            switch command {
            case .list:
                return await snapshot(id)
            case .subscribe:
                guard let incoming else { return .error(id: id, "subscribe needs a connection") }
                subscribe(incoming.reply)
                var response = await snapshot(id)
                response.fields["subscribed"] = true
                return response
            case .approve(let callIDs, let sessionID):
                try approvals.approve(callIDs: callIDs.map { ToolCallID($0) }, in: sessionID, by: decider)
            case .approveEdited(let callID, let sessionID, let arguments):
                try approvals.approve(callID: ToolCallID(callID), in: sessionID, arguments: arguments, by: decider)
            case .decline(let callIDs, let sessionID, let reason):
                try approvals.decline(callIDs: callIDs.map { ToolCallID($0) }, in: sessionID, reason: reason, by: decider)
            case .remember(let function, let arguments, let ifObject, let scope):
                let conditions = try ifObject.map { (ifObject) throws(ResolveKitError) in
                    try PolicyApprover.conditions(ifObject, for: function, functions: ServiceSettings.servedFunctions)
                }
                let decision = try await approvals.remember(
                    allow: function, arguments: arguments, matching: conditions, scope: scope, by: decider)
                return ServiceResponse(
                    id: id, fields: ["status": "ok", "remembered": ApprovalWire.remembered(decision)])
            case .revoke(let rememberedID):
                try await approvals.revoke(id: rememberedID)
            }
        } catch {
            log.warning("approval command refused", metadata: ["error": error.message, "by": decider.description])
            return ServiceResponse(
                id: id,
                fields: ["status": "error", "error": .string(error.message), "code": .string(error.code.rawValue)])
        }
        log.info("approval command", metadata: command.logMetadata.merging(["by": decider.description]) { $1 })
        return ServiceResponse(id: id, fields: ["status": "ok"])
    }

    private func snapshot(_ id: JSONValue?) async -> ServiceResponse {
        let remembered = await host.approvals.remembered
        return ServiceResponse(
            id: id,
            fields: [
                "status": "ok", "pending": .array(host.approvals.pending.map(ApprovalWire.batch)),
                "remembered": .array(remembered.map(ApprovalWire.remembered)),
            ])
    }

    /// Pushes every change to `reply` as an event line until the client closes its side.
    private func subscribe(_ reply: ReplySink) {
        let updates = host.approvals.updates
        reply.hold()
        let forwarding = Task {
            for await update in updates { reply.push(ApprovalWire.event(update).serialized(options: .sortedKeys)) }
        }
        reply.whenReadingEnds { forwarding.cancel() }
        Task {
            await forwarding.value
            reply.release()
        }
    }
}
