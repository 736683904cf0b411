extension SessionEngine {
    /// Stops taking new work: calls that arrive from now on, and calls still waiting for their batch window or
    /// in the queue, are answered with an error; calls already approved or running go on.
    func beginDrain() {
        isDraining = true
        for call in batcher.drain() + waitingImmediateCalls {
            record(call, .failure(.cancelled("The service is shutting down; try again later")))
        }
        waitingImmediateCalls = []
        deliveryKick?.yield()
    }

    /// Whether nothing is running and every result has been acknowledged.
    var isIdle: Bool {
        runningCalls == 0 && batcher.queuedBatchCount == 0 && journal.undelivered.isEmpty
    }
}
