/// The event stream's cursor (the id of the last event handled) and when to persist it: at most about once a
/// second while events flow, and whenever the session's work ends. A cursor a second old after a crash costs
/// only a replay of the events since, which the call journal and ``HandledEvents`` make harmless.
struct CursorKeeper: Sendable {
    static let writeInterval: Duration = .seconds(1)

    private(set) var value: String?
    private(set) var isDirty = false
    private var lastWrite: Duration?

    /// Takes a stored cursor, or none; nothing to write.
    mutating func restore(_ value: String?) {
        self.value = value
        isDirty = false
    }

    /// Moves to `id`; returns whether it should be written now.
    mutating func advance(to id: String, now: Duration) -> Bool {
        value = id
        isDirty = true
        guard let lastWrite else { return true }
        return now - lastWrite >= Self.writeInterval
    }

    /// Drops the cursor (the stream reopens from the start); to be written at once.
    mutating func clear() {
        value = nil
        isDirty = true
    }

    /// The value was written.
    mutating func written(now: Duration) {
        isDirty = false
        lastWrite = now
    }
}
