/// The one limit on calls running at once, for approval-free calls and approved batches alike: a slot is granted
/// at once while fewer than `limit` run, otherwise in arrival order as running calls finish. Pure.
package struct CallSlots: Sendable {
    package let limit: Int
    package private(set) var running = 0
    private var waiting: [ToolCallID] = []

    package init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// Asks for a slot for `callID`; `true` when granted now, otherwise it waits its turn.
    package mutating func request(_ callID: ToolCallID) -> Bool {
        guard takeIfFree() else {
            waiting.append(callID)
            return false
        }
        return true
    }

    /// Takes a slot when one is free now; `false` (and nothing waits) otherwise.
    package mutating func takeIfFree() -> Bool {
        guard running < limit, waiting.isEmpty else { return false }
        running += 1
        return true
    }

    /// A running call finished; returns the waiting call that now gets its slot.
    package mutating func release() -> ToolCallID? {
        guard !waiting.isEmpty else {
            running = max(0, running - 1)
            return nil
        }
        return waiting.removeFirst()
    }

    /// Stops `callID` from waiting (it got an outcome another way); `true` if it was waiting.
    package mutating func withdraw(_ callID: ToolCallID) -> Bool {
        guard let index = waiting.firstIndex(of: callID) else { return false }
        waiting.remove(at: index)
        return true
    }

    /// Forgets every waiting and running call (the session's work ended) and returns the waiting ones.
    package mutating func reset() -> [ToolCallID] {
        defer {
            waiting = []
            running = 0
        }
        return waiting
    }
}
