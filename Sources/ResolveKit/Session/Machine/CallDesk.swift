/// The session's tool calls from admission to acknowledgement: the batching pipeline, the call journal (each call
/// id once; a result kept until the server has it), which calls the tools core holds and how far they got, their
/// checklist rows, and the result delivery in flight. State only; ``SessionMachine`` decides with it.
struct CallDesk: Sendable {
    var pipeline: ToolPipeline
    var journal: CallJournal
    /// Records the journal's store holds: compacted once they outnumber the entries four to one.
    var journalRecords = 0
    /// Batches handed on once the journal write marking their calls as handed on (by its sequence) completed.
    var awaitingDurability: [(after: Int, batch: ToolCallBatch)] = []
    /// Calls decided and waiting to start until the journal write marking them as possibly run (by its sequence)
    /// completed.
    var awaitingStart: [(after: Int, callID: ToolCallID)] = []
    /// Calls handed to the tools core that have no outcome yet.
    var handed: Set<ToolCallID> = []
    /// Handed calls whose function started.
    var started: Set<ToolCallID> = []
    /// Handed calls that were approved and have not started: a drain withdraws them.
    var approved: Set<ToolCallID> = []
    /// Handed calls of a turn that ended: their outcome is kept, never posted (the server waits for none).
    var abandoned: Set<ToolCallID> = []
    /// The checklist row of every call without an outcome.
    var rows: [ToolCallID: ToolCallChecklistItem] = [:]
    var delivery = Delivery()

    /// The result delivery: one post at a time, oldest first, with a backoff after failures.
    struct Delivery: Sendable, Equatable {
        /// The call whose result is being posted.
        var inFlight: ToolCallID?
        /// Failures in a row.
        var failures = 0
        /// A retry is armed.
        var isWaiting = false
    }

    init(batchWindow: Duration, journal: CallJournal) {
        pipeline = ToolPipeline(batchWindow: batchWindow)
        self.journal = journal
    }

    /// Takes a handed call out of the batch that waits for its journal record, when it is there (it was never handed
    /// to the tools core, and no longer will be); `emptied` names an approval batch left with no call.
    mutating func takeAwaitingDurability(_ callID: ToolCallID) -> (taken: Bool, emptied: Int?) {
        guard let index = awaitingDurability.firstIndex(where: { $0.batch.calls.contains { $0.callID == callID } })
        else { return (false, nil) }
        awaitingDurability[index].batch.calls.removeAll { $0.callID == callID }
        handed.remove(callID)
        guard awaitingDurability[index].batch.calls.isEmpty else { return (true, nil) }
        let batchID = awaitingDurability.remove(at: index).batch.id
        return (true, batchID == 0 ? nil : batchID)
    }

    /// Whether every admitted call has an outcome and every outcome has been acknowledged.
    var isIdle: Bool { pipeline.isIdle && journal.answeredKeys.isEmpty }

    /// The row of a call at admission.
    static func row(_ call: PendingToolCall, _ status: ToolCallChecklistItem.Status) -> ToolCallChecklistItem {
        var item = ToolCallChecklistItem(
            id: call.callID, functionName: call.functionName, humanDescription: call.humanDescription,
            arguments: call.arguments, requiresApproval: call.requiresApproval, status: status)
        item.receivedAt = call.receivedAt
        return item
    }

    /// The oldest result to post in `sessionID`. Results of earlier sessions cannot be posted with this session's
    /// token: they are settled and returned as dropped.
    mutating func nextResult(in sessionID: String) -> (next: ToolResultSubmission?, dropped: [CallJournal.Key]) {
        let dropped = journal.answeredKeys.filter { $0.sessionID != sessionID }
        for key in dropped { journal.settle(key) }
        return (journal.undelivered.first, Array(dropped))
    }
}
