extension SessionEngine {
    /// Stops taking new work: calls that arrive from now on, and calls still waiting for their batch window or
    /// in the queue, are answered with an error; calls already approved or running go on.
    func beginDrain() {
        isDraining = true
        output.log("Draining: new calls are refused; running calls finish and results are posted", level: .info)
        let waitingForSlot = slotWaiters.keys.compactMap { openCalls[$0] }
        for call in batcher.drain() + waitingForSlot {
            record(call, .failure(.cancelled("The service is shutting down; try again later")), decision: .refused)
        }
        deliveryKick?.yield()
    }

    /// Whether every admitted call has an outcome and every outcome has been acknowledged.
    var isIdle: Bool {
        openCalls.isEmpty && journal.undelivered.isEmpty
    }
}
