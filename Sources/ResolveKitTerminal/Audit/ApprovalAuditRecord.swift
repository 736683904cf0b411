public import Foundation
public import ResolveKit

/// One decision about one tool call, as the audit log keeps it. Holds a digest of the arguments, never their
/// values.
public struct ApprovalAuditRecord: Sendable, Hashable {
    /// What was decided.
    public enum Decision: String, Sendable, Hashable {
        /// The call may run.
        case approved
        /// The call may not run.
        case declined
        /// Nobody decided before the call's deadline.
        case timedOut = "timed_out"
    }

    /// Who or what decided.
    public enum Channel: String, Sendable, Hashable {
        /// A person at the terminal, with a key.
        case terminal
        /// An earlier "allow this function for the session" at the terminal.
        case sessionAllow = "session_allow"
        /// The configured policy, because no terminal was available.
        case fallbackPolicy = "fallback_policy"
        /// The input ended (end of file or Ctrl-D) before anyone answered.
        case endOfInput = "end_of_input"
    }

    /// When it was decided.
    public var time: Date
    /// The session.
    public var sessionID: String
    /// The batch.
    public var batchID: Int
    /// The call.
    public var callID: String
    /// The function called.
    public var functionName: String
    /// ``ArgumentDigest`` of the arguments.
    public var argumentDigest: String
    /// What was decided.
    public var decision: Decision
    /// Why a call was declined, as the model is told; `nil` for approvals.
    public var reason: String?
    /// Who or what decided.
    public var via: Channel

    /// Creates a record.
    public init(
        time: Date, sessionID: String, batchID: Int, callID: String, functionName: String, argumentDigest: String,
        decision: Decision, reason: String?, via: Channel
    ) {
        self.time = time
        self.sessionID = sessionID
        self.batchID = batchID
        self.callID = callID
        self.functionName = functionName
        self.argumentDigest = argumentDigest
        self.decision = decision
        self.reason = reason
        self.via = via
    }

    /// The record as one JSON line (sorted keys, no newline).
    public var jsonLine: String {
        let object: JSONObject = [
            "time": .string(ISO8601Timestamp.format(time)),
            "session_id": .string(sessionID),
            "batch_id": .number(Double(batchID)),
            "call_id": .string(callID),
            "function": .string(functionName),
            "argument_digest": .string(argumentDigest),
            "decision": .string(decision.rawValue),
            "reason": reason.map(JSONValue.string) ?? .null,
            "via": .string(via.rawValue),
        ]
        return JSONValue.object(object).serialized(options: .sortedKeys)
    }
}

/// A short, stable fingerprint of tool-call arguments: FNV-1a 64 over the canonical JSON (sorted keys, no
/// whitespace), as 16 lower-case hex digits. Equal arguments give equal digests; the values cannot be read back.
public enum ArgumentDigest {
    /// The digest of `arguments`.
    public static func digest(_ arguments: JSONValue) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in arguments.serializedBytes(options: .sortedKeys) {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01B3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
