/// Coalesces tool calls into batches: a single window (not sliding) opened by the first call that needs approval;
/// calls that need none run at once; batches wait FIFO while one is being approved or run.
///
/// Pure: each input returns what the owner must do.
struct ToolBatcherStateMachine {
    enum ReceiveAction: Equatable {
        /// Run this call now; it needs no approval.
        case runImmediately(PendingToolCall)
        /// The first call of a window: arm a timer for `deadline`.
        case armWindow(deadline: Duration)
        /// Added to the open window.
        case none
    }

    enum BatchAction: Equatable {
        /// Ask for approval of this batch and run it.
        case present(ToolCallBatch)
        /// Nothing to do now.
        case none
    }

    private enum Window {
        case closed
        case open(calls: [PendingToolCall])
    }

    private let windowLength: Duration
    private var window = Window.closed
    private var queue: [ToolCallBatch] = []
    private var isBatchInProgress = false
    private var nextBatchID = 1

    init(windowLength: Duration) {
        self.windowLength = windowLength
    }

    /// Batches formed but not yet presented.
    var queuedBatchCount: Int { queue.count }

    mutating func receive(_ call: PendingToolCall, now: Duration) -> ReceiveAction {
        guard call.requiresApproval else { return .runImmediately(call) }
        switch window {
        case .closed:
            window = .open(calls: [call])
            return .armWindow(deadline: now + windowLength)
        case .open(var calls):
            calls.append(call)
            window = .open(calls: calls)
            return .none
        }
    }

    /// The window's timer fired: the collected calls become a batch.
    mutating func windowElapsed() -> BatchAction {
        guard case .open(let calls) = window else { return .none }
        window = .closed
        queue.append(ToolCallBatch(id: nextBatchID, calls: calls))
        nextBatchID += 1
        return presentNextIfIdle()
    }

    /// The batch in progress was decided and run.
    mutating func batchFinished() -> BatchAction {
        isBatchInProgress = false
        return presentNextIfIdle()
    }

    /// Drops every call not yet presented (session replaced, runtime stopping) and returns them.
    mutating func drain() -> [PendingToolCall] {
        var dropped = queue.flatMap(\.calls)
        if case .open(let calls) = window { dropped += calls }
        queue.removeAll()
        window = .closed
        return dropped
    }

    /// The session's work ended: drops every call not yet presented, like ``drain()``, and forgets the batch in
    /// progress, whose job ended with the session (it may never have started), so the next session's first
    /// batch is presented instead of queueing behind it for ever.
    mutating func endSession() -> [PendingToolCall] {
        isBatchInProgress = false
        return drain()
    }

    private mutating func presentNextIfIdle() -> BatchAction {
        guard !isBatchInProgress, !queue.isEmpty else { return .none }
        isBatchInProgress = true
        return .present(queue.removeFirst())
    }
}
