/// The one limit on calls running at once, for approval-free calls and approved batches alike: a slot is granted
/// at once while fewer than `limit` run, otherwise in arrival order as running calls finish. Pure.
struct CallSlots: Sendable {
    let limit: Int
    private(set) var running = 0
    private var waiting: [String] = []

    init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// Asks for a slot for `callID`; `true` when granted now, otherwise it waits its turn.
    mutating func request(_ callID: String) -> Bool {
        guard takeIfFree() else {
            waiting.append(callID)
            return false
        }
        return true
    }

    /// Takes a slot when one is free now; `false` (and nothing waits) otherwise.
    mutating func takeIfFree() -> Bool {
        guard running < limit, waiting.isEmpty else { return false }
        running += 1
        return true
    }

    /// A running call finished; returns the waiting call that now gets its slot.
    mutating func release() -> String? {
        guard !waiting.isEmpty else {
            running = max(0, running - 1)
            return nil
        }
        return waiting.removeFirst()
    }

    /// Stops `callID` from waiting (it got an outcome another way); `true` if it was waiting.
    mutating func withdraw(_ callID: String) -> Bool {
        guard let index = waiting.firstIndex(of: callID) else { return false }
        waiting.remove(at: index)
        return true
    }

    /// Forgets every waiting and running call (the session's work ended) and returns the waiting ones.
    mutating func reset() -> [String] {
        defer {
            waiting = []
            running = 0
        }
        return waiting
    }
}
