/// The bookkeeping of the session's tool calls from admission to outcome: which calls are open, which wait for
/// their batch window or a slot under the one concurrency limit, and whether the runtime drains. Pure: the engine
/// asks it what to do and performs the approvals, the runs and the recording.
struct ToolPipeline: Sendable {
    /// What to do with a call just admitted.
    enum Admission: Sendable, Equatable {
        /// Answer it with this error at once, without a batch or a slot.
        case refuse(ResolveKitFunctionError)
        /// It needs no approval: run it (it still waits for a slot).
        case run
        /// The first call of a batch window: arm a timer for `deadline`.
        case armWindow(deadline: Duration)
        /// It joined the open window.
        case wait
    }

    private var batcher: ToolBatcherStateMachine
    private var slots: CallSlots
    /// Calls admitted that have no outcome yet, by call id.
    private(set) var openCalls: [String: PendingToolCall] = [:]
    private(set) var isDraining = false

    init(batchWindow: Duration, maxConcurrentCalls: Int) {
        batcher = ToolBatcherStateMachine(windowLength: batchWindow)
        slots = CallSlots(limit: maxConcurrentCalls)
    }

    /// Takes a call in; `refusal` is why its function may not run here (unknown, not allowed), if it may not.
    mutating func admit(_ call: PendingToolCall, refusal: ResolveKitFunctionError?, now: Duration) -> Admission {
        openCalls[call.callID] = call
        if let refusal { return .refuse(refusal) }
        if isDraining { return .refuse(.cancelled("The service is shutting down; try again later")) }
        switch batcher.receive(call, now: now) {
        case .runImmediately: return .run
        case .armWindow(let deadline): return .armWindow(deadline: deadline)
        case .none: return .wait
        }
    }

    /// Whether the call still has no outcome (it may run).
    func isOpen(_ callID: String) -> Bool { openCalls[callID] != nil }

    /// The batch window elapsed: the batch to present now, if none is in progress.
    mutating func windowElapsed() -> ToolCallBatch? {
        if case .present(let batch) = batcher.windowElapsed() { batch } else { nil }
    }

    /// The batch in progress was decided and run: the next one to present.
    mutating func batchFinished() -> ToolCallBatch? {
        if case .present(let batch) = batcher.batchFinished() { batch } else { nil }
    }

    /// Asks for a slot; `true` when granted now, otherwise the call waits its turn.
    mutating func requestSlot(_ callID: String) -> Bool { slots.request(callID) }

    /// Takes a slot when one is free now; `false` (and nothing waits) otherwise.
    mutating func takeFreeSlot() -> Bool { slots.takeIfFree() }

    /// A running call finished: the waiting call that now gets its slot.
    mutating func releaseSlot() -> String? { slots.release() }

    /// The call got its outcome; returns `true` when it was waiting for a slot (its waiter must be woken).
    mutating func closed(_ callID: String) -> Bool {
        openCalls[callID] = nil
        return slots.withdraw(callID)
    }

    /// The open calls of `turnID`, oldest first.
    func openCalls(ofTurn turnID: String) -> [PendingToolCall] {
        openCalls.values.filter { $0.turnID == turnID }.sorted { $0.receivedAt < $1.receivedAt }
    }

    /// Whether a call still has no outcome while the server waits for it.
    func hasOutstandingCalls(now: Duration) -> Bool {
        openCalls.values.contains { $0.serverDeadline > now }
    }

    /// Drains: new calls are refused from now on; returns the calls not started yet (in their window, queued, or
    /// waiting for a slot), to be answered with an error. Calls already approved or running go on.
    mutating func beginDrain(waitingForSlot: [String]) -> [PendingToolCall] {
        isDraining = true
        return batcher.drain() + waitingForSlot.compactMap { openCalls[$0] }
    }

    /// The session's work ended: every open call, oldest first, and the ids of calls that waited for a slot.
    mutating func endSession() -> (open: [PendingToolCall], waitingForSlot: [String]) {
        _ = batcher.endSession()
        let waiting = slots.reset()
        let open = openCalls.values.sorted { $0.receivedAt < $1.receivedAt }
        return (open, waiting)
    }

    /// Whether every admitted call has an outcome.
    var isIdle: Bool { openCalls.isEmpty }
}
