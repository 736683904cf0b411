/// The exactly-once ledger of tool calls: what arrived, what ran, which results the server has acknowledged.
///
/// A `call_id` is admitted once per session: replays, duplicated events, reconnects and process restarts never
/// run a function twice. A result stays in the ledger until the server acknowledged it (2xx) or said it is no
/// longer wanted (404/410). Pure value; ``RuntimeStateStore`` persists it.
struct CallJournal: Equatable, Sendable {
    enum Status: Equatable {
        /// Admitted; not yet started (awaiting the batch window or approval).
        case received
        /// Handed to the tools core: it may have run (approved, or needing no approval).
        case running
        /// A result exists and has not been acknowledged.
        case answered(ToolCallOutcome)
        /// The server acknowledged the result, or said it no longer wants one.
        case settled
    }

    struct Key: Hashable, Sendable {
        var sessionID: String
        var callID: ToolCallID
    }

    struct Entry: Equatable, Sendable {
        var key: Key
        var turnID: String
        var functionName: String
        var status: Status
        /// Order of admission, to prune the oldest settled entries first.
        var sequence: Int
    }

    enum Admission: Equatable, Sendable {
        /// New: run it (after approval if needed).
        case admitted
        /// Seen before; do not run again.
        case duplicate(Status)
    }

    /// The most entries kept; beyond it the oldest settled one is forgotten for each new one.
    let capacity: Int
    private(set) var entries: [Key: Entry] = [:]
    private var nextSequence = 0
    /// Keys in the order they were admitted (an unacknowledged one passed over by pruning goes to the back), from
    /// `oldestIndex` on: pruning takes from the front instead of sorting the journal.
    private var admissionOrder: [Key] = []
    private var oldestIndex = 0
    /// Entries changed since the last ``takeChangedEntries()``, for an append-only state file.
    private var changedKeys: Set<Key> = []
    /// Entries forgotten since the last ``takeForgottenKeys()``, for a store that can delete them one by one.
    private var forgottenKeys: [Key] = []
    /// The entries with a result not yet acknowledged: few, so delivery never scans the whole journal.
    private(set) var answeredKeys: Set<Key> = []

    init(capacity: Int = 4096) {
        self.capacity = capacity
    }

    /// Equal when they hold the same entries and changes: the order kept for pruning is bookkeeping.
    static func == (lhs: CallJournal, rhs: CallJournal) -> Bool {
        lhs.capacity == rhs.capacity && lhs.entries == rhs.entries && lhs.nextSequence == rhs.nextSequence
            && lhs.changedKeys == rhs.changedKeys && lhs.answeredKeys == rhs.answeredKeys
    }

    mutating func admit(sessionID: String, callID: ToolCallID, turnID: String, functionName: String) -> Admission {
        let key = Key(sessionID: sessionID, callID: callID)
        if let entry = entries[key] { return .duplicate(entry.status) }
        entries[key] = Entry(
            key: key, turnID: turnID, functionName: functionName, status: .received, sequence: nextSequence)
        nextSequence += 1
        admissionOrder.append(key)
        changedKeys.insert(key)
        pruneIfNeeded()
        return .admitted
    }

    mutating func markRunning(_ key: Key) {
        guard entries[key]?.status == .received else { return }
        entries[key]?.status = .running
        changedKeys.insert(key)
    }

    /// Records the result; a call that already has a result or was settled keeps its first one.
    @discardableResult
    mutating func recordResult(_ key: Key, _ outcome: ToolCallOutcome) -> Bool {
        guard let status = entries[key]?.status, status == .received || status == .running else { return false }
        entries[key]?.status = .answered(outcome)
        changedKeys.insert(key)
        answeredKeys.insert(key)
        return true
    }

    mutating func settle(_ key: Key) {
        guard entries[key] != nil else { return }
        entries[key]?.status = .settled
        changedKeys.insert(key)
        answeredKeys.remove(key)
    }

    func status(_ key: Key) -> Status? { entries[key]?.status }

    /// Whether a call has no result the server acknowledged: it is waiting, running, or its result is undelivered.
    var hasUnsettledCalls: Bool { entries.values.contains { $0.status != .settled } }

    /// Restores an entry's status as read from the state file.
    mutating func restore(_ key: Key, status: Status) {
        guard entries[key] != nil else { return }
        entries[key]?.status = status
        if case .answered = status { answeredKeys.insert(key) } else { answeredKeys.remove(key) }
    }

    /// The entries changed since the last call, oldest first; each is written as one line of the state file.
    mutating func takeChangedEntries() -> [Entry] {
        defer { changedKeys.removeAll(keepingCapacity: true) }
        return changedKeys.compactMap { entries[$0] }.sorted { $0.sequence < $1.sequence }
    }

    /// The keys of the entries forgotten since the last call (settled ones pruned past the capacity): a store that
    /// can delete records one by one (memory, Redis) deletes them, and never needs the whole journal rewritten.
    mutating func takeForgottenKeys() -> [Key] {
        defer { forgottenKeys.removeAll(keepingCapacity: true) }
        return forgottenKeys
    }

    /// Results not yet acknowledged, oldest first.
    var undelivered: [ToolResultSubmission] {
        answeredKeys.compactMap { entries[$0] }.sorted { $0.sequence < $1.sequence }.compactMap { entry in
            guard case .answered(let outcome) = entry.status else { return nil }
            return ToolResultSubmission(
                turnID: entry.turnID, callID: entry.key.callID, idempotencyKey: entry.key.callID.rawValue,
                outcome: outcome)
        }
    }

    /// Called once when a journal is loaded from disk: a call that was admitted or running when the process
    /// stopped may or may not have had its effect, so it is answered with an error instead of being run again.
    /// - Returns: those calls' entries as answered now, oldest first, for the audit trail and the log.
    @discardableResult
    mutating func resolveInterruptedCalls() -> [Entry] {
        var resolved: [Entry] = []
        for (key, entry) in entries where entry.status == .received || entry.status == .running {
            let message =
                entry.status == .running
                ? "Interrupted by a client restart after it was handed on to run; it may or may not have completed"
                : "Interrupted by a client restart before it ran"
            entries[key]?.status = .answered(.failure(.cancelled(message)))
            changedKeys.insert(key)
            answeredKeys.insert(key)
            if let answered = entries[key] { resolved.append(answered) }
        }
        return resolved.sorted { $0.sequence < $1.sequence }
    }

    /// Past the capacity, forgets the oldest settled entry: a full journal is the steady state of a long-running
    /// host, so this runs on nearly every call and must not look at the whole journal (sorting it to forget an
    /// eighth at once stopped one call in 513 for 1.3–4.5 ms). Calls without an acknowledged result are never
    /// forgotten: passed over, they go to the back of the order and are looked at again later.
    private mutating func pruneIfNeeded() {
        var looked = 0
        let queued = admissionOrder.count - oldestIndex
        while entries.count > capacity, looked < queued {
            let key = admissionOrder[oldestIndex]
            oldestIndex += 1
            looked += 1
            if entries[key]?.status == .settled {
                entries[key] = nil
                forgottenKeys.append(key)
            } else if entries[key] != nil {
                admissionOrder.append(key)
            }
        }
        // The spent front is dropped once it is half the list: a move of a few thousand keys, every few thousand calls.
        if oldestIndex > 64, oldestIndex * 2 > admissionOrder.count {
            admissionOrder.removeFirst(oldestIndex)
            oldestIndex = 0
        }
    }
}
