/// The results of this runtime's tool calls until the server has them: the call journal, saved through its store
/// after every change. A `call_id` is admitted once per session, answered once (the first outcome wins), and kept
/// until the server acknowledged it or said it waits for it no more.
struct ResultOutbox {
    private(set) var journal: CallJournal
    let store: any CallJournalStore

    /// Loads the journal; calls that were admitted or running when the last process stopped are answered with an
    /// error, never run again.
    init(store: any CallJournalStore) {
        self.store = store
        journal = store.load()
        journal.resolveInterruptedCalls()
    }

    /// Admits a new call; a repeated one is refused with its status.
    mutating func admit(_ key: CallJournal.Key, turnID: String, functionName: String) -> CallJournal.Admission {
        journal.admit(sessionID: key.sessionID, callID: key.callID, turnID: turnID, functionName: functionName)
    }

    /// The function starts.
    mutating func markRunning(_ key: CallJournal.Key) {
        journal.markRunning(key)
    }

    /// Keeps the call's outcome; `false` when it already had one. With `settled`, it is not to be posted (the
    /// server waits for it no more).
    mutating func record(_ key: CallJournal.Key, _ outcome: ToolResultSubmission.Outcome, settled: Bool) -> Bool {
        guard journal.recordResult(key, outcome) else { return false }
        if settled { journal.settle(key) }
        return true
    }

    /// The server has the result, or waits for it no more; `false` when it was settled already.
    mutating func settle(_ key: CallJournal.Key) -> Bool {
        guard journal.status(key) != .settled else { return false }
        journal.settle(key)
        return true
    }

    /// The oldest result to post in `sessionID`. Results of earlier sessions cannot be posted with this session's
    /// token: they are settled and returned as dropped.
    mutating func next(in sessionID: String) -> (next: ToolResultSubmission?, dropped: [CallJournal.Key]) {
        let dropped = journal.answeredKeys.filter { $0.sessionID != sessionID }
        for key in dropped { journal.settle(key) }
        return (journal.undelivered.first, Array(dropped))
    }

    /// Whether every result has been acknowledged.
    var isEmpty: Bool { journal.answeredKeys.isEmpty }

    /// Saves what changed since the last save.
    /// - Throws: ``ResolveKitError`` with ``ResolveKitError/Code/stateStore``; the journal in memory stays right,
    ///   so this process still runs nothing twice.
    mutating func save() throws(ResolveKitError) {
        let changed = journal.takeChangedEntries()
        try store.save(changed: changed, of: journal)
    }
}
