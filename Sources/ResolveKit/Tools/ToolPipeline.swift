/// The bookkeeping of the session's tool calls from admission to outcome: which calls are open, which wait for
/// their batch window, and whether the runtime drains. Pure: the session machine asks it what to do.
struct ToolPipeline: Sendable {
    /// What to do with a call just admitted.
    enum Admission: Sendable, Equatable {
        /// Answer it with this error at once, without a batch.
        case refuse(ResolveKitFunctionError)
        /// It needs no approval: hand it to the tools core now.
        case run
        /// The first call of a batch window: arm a timer for `deadline`.
        case armWindow(deadline: Duration)
        /// It joined the open window.
        case wait
    }

    private var batcher: ToolBatcherStateMachine
    /// Calls admitted that have no outcome yet, by call id.
    private(set) var openCalls: [ToolCallID: PendingToolCall] = [:]
    private(set) var isDraining = false

    init(batchWindow: Duration) {
        batcher = ToolBatcherStateMachine(windowLength: batchWindow)
    }

    /// Takes a call in; while draining it is refused.
    mutating func admit(_ call: PendingToolCall, now: Duration) -> Admission {
        openCalls[call.callID] = call
        if isDraining { return .refuse(.cancelled("The service is shutting down; try again later")) }
        switch batcher.receive(call, now: now) {
        case .runImmediately: return .run
        case .armWindow(let deadline): return .armWindow(deadline: deadline)
        case .none: return .wait
        }
    }

    /// Whether the call still has no outcome.
    func isOpen(_ callID: ToolCallID) -> Bool { openCalls[callID] != nil }

    /// The batch window elapsed: the batch to present now, if none is in progress.
    mutating func windowElapsed() -> ToolCallBatch? {
        if case .present(let batch) = batcher.windowElapsed() { batch } else { nil }
    }

    /// The batch in progress was decided and run: the next one to present.
    mutating func batchFinished() -> ToolCallBatch? {
        if case .present(let batch) = batcher.batchFinished() { batch } else { nil }
    }

    /// The call got its outcome.
    mutating func closed(_ callID: ToolCallID) {
        openCalls[callID] = nil
    }

    /// The open calls of `turnID`, oldest first.
    func openCalls(ofTurn turnID: String) -> [PendingToolCall] {
        openCalls.values.filter { $0.turnID == turnID }.sorted { $0.receivedAt < $1.receivedAt }
    }

    /// Whether a call still has no outcome while the server waits for it.
    func hasOutstandingCalls(now: Duration) -> Bool {
        openCalls.values.contains { $0.serverDeadline > now }
    }

    /// Drains: new calls are refused from now on; returns the calls not yet handed on (in their window or
    /// queued), to be answered with an error. Calls being decided or running go on.
    mutating func beginDrain() -> [PendingToolCall] {
        isDraining = true
        return batcher.drain()
    }

    /// The session's work ended: every open call, oldest first; nothing is batched any more.
    mutating func endSession() -> [PendingToolCall] {
        _ = batcher.endSession()
        return openCalls.values.sorted { $0.receivedAt < $1.receivedAt }
    }

    /// Whether every admitted call has an outcome.
    var isIdle: Bool { openCalls.isEmpty }
}
