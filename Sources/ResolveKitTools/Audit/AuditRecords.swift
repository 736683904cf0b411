import Foundation

/// The lines the runtime writes to an ``ApprovalAuditTrail``: one per decision, one per outcome. They hold
/// SHA-256 digests of arguments and results, never the values.
package struct AuditRecords: Sendable {
    package let trail: ApprovalAuditTrail?
    /// Where a line that cannot be written is reported.
    let reportFailure: @Sendable (String) -> Void

    /// Lines for `trail` (none when `nil`); a failed write is reported to `reportFailure` and never stops a call.
    package init(trail: ApprovalAuditTrail?, reportFailure: @escaping @Sendable (String) -> Void) {
        self.trail = trail
        self.reportFailure = reportFailure
    }

    /// A decision about one call of a batch (batch 0: a call that needed no approval).
    package func decision(_ call: PendingToolCall, sessionID: String, batchID: Int, _ decision: ToolCallDecision) {
        guard let trail else { return }
        let verdict: String
        var reason: JSONValue = .null
        switch decision.verdict {
        case .approve, .attributed: verdict = "approved"
        case .approveEdited: verdict = "approved_edited"
        case .decline(let text):
            verdict = "declined"
            reason = .string(text ?? "User denied action")
        }
        var fields = common("decision", call, sessionID: sessionID)
        fields["batch_id"] = .number(Double(batchID))
        fields["argument_digest"] = .string(Self.digest(call.arguments))
        fields["decision"] = .string(verdict)
        fields["reason"] = reason
        fields["decided_by"] = .object(Self.object(decision.decider ?? .host("unknown")))
        if case .approveEdited(let arguments) = decision.verdict {
            fields["edited_argument_digest"] = .string(Self.digest(arguments))
        }
        write(fields, to: trail)
    }

    /// How a call ended; `duration` is its running time when it ran.
    package func outcome(_ call: PendingToolCall, sessionID: String, _ outcome: ToolCallOutcome, duration: Duration?) {
        guard let trail else { return }
        var fields = common("outcome", call, sessionID: sessionID)
        switch outcome {
        case .success(let value):
            fields["status"] = "success"
            fields["result_digest"] = .string(Self.digest(value))
        case .failure(let error):
            fields["status"] = .string(error.code.rawValue)
            fields["result_digest"] = .string(Self.digest(.string(error.message)))
        }
        fields["duration_ms"] =
            duration.map {
                .number((Double($0.components.seconds) * 1000 + Double($0.components.attoseconds) / 1e15).rounded())
            } ?? .null
        write(fields, to: trail)
    }

    private func common(_ kind: String, _ call: PendingToolCall, sessionID: String) -> JSONObject {
        [
            "kind": .string(kind), "time": .string(ISO8601Timestamp.format(Date())), "session_id": .string(sessionID),
            "call_id": .string(call.callID.rawValue), "function": .string(call.functionName),
        ]
    }

    private func write(_ fields: JSONObject, to trail: ApprovalAuditTrail) {
        do {
            try trail.append(fields)
        } catch {
            reportFailure("Audit trail: \(error.message)")
        }
    }

    /// SHA-256 of the value's canonical JSON, as hex.
    static func digest(_ value: JSONValue) -> String {
        SHA256.hex(SHA256.digest(value.serializedBytes(options: .sortedKeys)))
    }

    /// The decider as the trail writes it: `{"kind": "person", "uid": 1000, "pid": 4242, "terminal": …}`.
    static func object(_ decider: ToolCallDecision.Decider) -> JSONObject {
        switch decider {
        case .person(let uid, let pid, let terminal):
            [
                "kind": "person", "uid": .number(Double(uid)), "pid": .number(Double(pid)),
                "terminal": terminal.map(JSONValue.string) ?? .null,
            ]
        case .policy(let rule): ["kind": "policy", "rule": .string(rule)]
        case .remembered(let id): ["kind": "remembered", "id": .string(id)]
        case .timeout: ["kind": "timeout"]
        case .automatic(let reason): ["kind": "automatic", "reason": .string(reason)]
        case .host(let name): ["kind": "host", "name": .string(name)]
        }
    }
}
