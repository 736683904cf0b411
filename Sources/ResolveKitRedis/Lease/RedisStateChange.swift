/// The changes one fenced write applies, in order, atomically: journal entries, delivery marks and state fields of
/// one user key.
///
/// ```swift
/// var change = RedisStateChange()
/// change.putJournalEntry(callID: "call_1", line: #"{"status":"answered"}"#)
/// change.markUndelivered(callID: "call_1")
/// change.setField("cursor", to: "42")
/// ```
public struct RedisStateChange: Sendable, Hashable {
    /// One change.
    public enum Operation: Sendable, Hashable {
        /// Puts a call's journal entry (a JSON line), replacing the previous one.
        case putJournalEntry(callID: String, line: String)
        /// Removes a call's journal entry (pruned).
        case removeJournalEntry(callID: String)
        /// Adds the call to the undelivered results.
        case markUndelivered(callID: String)
        /// Removes the call from the undelivered results (the backend acknowledged it).
        case markDelivered(callID: String)
        /// Sets a state field such as `session`, `cursor` or `device_id`.
        case setField(name: String, value: String)
        /// Removes a state field.
        case removeField(name: String)
        /// Removes every journal entry and delivery mark (the journal is written again after it, compacted).
        case clearJournal
    }

    /// The operations, applied in this order.
    public var operations: [Operation]

    /// A change of `operations`.
    public init(_ operations: [Operation] = []) {
        self.operations = operations
    }

    /// Whether there is nothing to write.
    public var isEmpty: Bool { operations.isEmpty }

    /// Appends ``Operation/putJournalEntry(callID:line:)``.
    public mutating func putJournalEntry(callID: String, line: String) {
        operations.append(.putJournalEntry(callID: callID, line: line))
    }

    /// Appends ``Operation/markUndelivered(callID:)``.
    public mutating func markUndelivered(callID: String) { operations.append(.markUndelivered(callID: callID)) }

    /// Appends ``Operation/markDelivered(callID:)``.
    public mutating func markDelivered(callID: String) { operations.append(.markDelivered(callID: callID)) }

    /// Appends ``Operation/setField(name:value:)``.
    public mutating func setField(_ name: String, to value: String) {
        operations.append(.setField(name: name, value: value))
    }

    /// The script's arguments after the token: (operation, field, value) triples.
    var arguments: [String] {
        operations.flatMap { operation -> [String] in
            switch operation {
            case .putJournalEntry(let callID, let line): return ["J", callID, line]
            case .removeJournalEntry(let callID): return ["j", callID, ""]
            case .markUndelivered(let callID): return ["U", callID, ""]
            case .markDelivered(let callID): return ["u", callID, ""]
            case .setField(let name, let value): return ["S", name, value]
            case .removeField(let name): return ["s", name, ""]
            case .clearJournal: return ["X", "", ""]
            }
        }
    }
}

/// Everything stored for one user key, read in one atomic script.
public struct RedisStoredState: Sendable, Hashable {
    /// The lease holder now, or `nil` when no one holds it (never taken, released or expired).
    public var holder: String?
    /// The token of the current lease, or of the last one when it is gone (0 when never taken).
    public var token: Int64
    /// How long the current lease still runs, when there is one.
    public var leaseRemaining: Duration?
    /// Call id → journal entry (a JSON line).
    public var journal: [String: String]
    /// Call ids whose results are not acknowledged.
    public var undelivered: Set<String>
    /// State fields (`session`, `cursor`, `device_id`, `user_key`, …).
    public var fields: [String: String]

    /// Creates a state as read.
    public init(
        holder: String?, token: Int64, leaseRemaining: Duration?, journal: [String: String], undelivered: Set<String>,
        fields: [String: String]
    ) {
        self.holder = holder
        self.token = token
        self.leaseRemaining = leaseRemaining
        self.journal = journal
        self.undelivered = undelivered
        self.fields = fields
    }
}

/// A lease taken: the fencing token every write must carry.
public struct RedisLeaseGrant: Sendable, Hashable {
    /// The user key.
    public var userKey: String
    /// Who holds it (this replica's holder id).
    public var holder: String
    /// The fencing token: larger than any earlier holder's.
    public var token: Int64
    /// The lease length asked for.
    public var duration: Duration
}
