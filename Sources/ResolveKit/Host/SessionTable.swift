/// Which keys of a ``ResolveKitHost`` have an open session, which are closing, and which to close next: the least
/// recently used beyond the cap, and those idle too long. A session in use (an `ask` running or waiting) is never
/// chosen. Pure bookkeeping: the host does the starting and closing.
struct SessionTable<Session, Closing> {
    /// What a caller gets for a key.
    enum CheckOut {
        /// The key's session, `created` when it was made just now.
        case ready(Session, created: Bool)
        /// The key's previous session is still closing (delivering its results, unlocking its folder): wait for
        /// it, then check out again.
        case waitForClose(Closing)
        /// The host was drained; it opens no more sessions.
        case hostClosed
    }

    private struct Entry {
        var session: Session
        var lastUsed: Duration
        var uses: Int
    }

    private var entries: [String: Entry] = [:]
    private var closing: [String: Closing] = [:]
    private(set) var isClosed = false

    /// The keys with an open session.
    var openKeys: [String] { entries.keys.sorted() }

    /// The key's session for one use (end it with ``checkIn(_:now:)``), made with `make` when there is none.
    mutating func checkOut(_ key: String, now: Duration, make: () -> Session) -> CheckOut {
        guard !isClosed else { return .hostClosed }
        if let waiting = closing[key] { return .waitForClose(waiting) }
        if var entry = entries[key] {
            entry.uses += 1
            entry.lastUsed = now
            entries[key] = entry
            return .ready(entry.session, created: false)
        }
        let session = make()
        entries[key] = Entry(session: session, lastUsed: now, uses: 1)
        return .ready(session, created: true)
    }

    /// Ends one use of the key's session; its idle time counts from `now`.
    mutating func checkIn(_ key: String, now: Duration) {
        guard var entry = entries[key] else { return }
        entry.uses = max(0, entry.uses - 1)
        entry.lastUsed = now
        entries[key] = entry
    }

    /// Takes the key's session out of the table (it failed to start, or is closed on request), if it is not in use
    /// by another caller.
    mutating func remove(_ key: String, force: Bool = false) -> Session? {
        guard let entry = entries[key], force || entry.uses == 0 else { return nil }
        entries[key] = nil
        return entry.session
    }

    /// Takes out the least recently used sessions not in use until at most `maxOpen` remain.
    mutating func evictions(maxOpen: Int) -> [(key: String, session: Session)] {
        let excess = entries.count - maxOpen
        guard excess > 0 else { return [] }
        let victims = entries.filter { $0.value.uses == 0 }
            .sorted { ($0.value.lastUsed, $0.key) < ($1.value.lastUsed, $1.key) }
            .prefix(excess)
        return victims.map { key, entry in
            entries[key] = nil
            return (key, entry.session)
        }
    }

    /// Takes out the sessions not in use whose last use is at least `idleFor` before `now`.
    mutating func idleSessions(now: Duration, idleFor: Duration) -> [(key: String, session: Session)] {
        let idle = entries.filter { $0.value.uses == 0 && now - $0.value.lastUsed >= idleFor }.sorted { $0.key < $1.key }
        return idle.map { key, entry in
            entries[key] = nil
            return (key, entry.session)
        }
    }

    /// Records that the key's session is closing; until ``closed(_:)``, checking the key out waits for `task`.
    mutating func closing(_ key: String, _ task: Closing) {
        closing[key] = task
    }

    /// The key's session has closed.
    mutating func closed(_ key: String) {
        closing[key] = nil
    }

    /// Closes the table for good and takes every session out, with the closings still running.
    mutating func closeAll() -> (open: [(key: String, session: Session)], closing: [Closing]) {
        isClosed = true
        let open = entries.sorted { $0.key < $1.key }.map { ($0.key, $0.value.session) }
        entries = [:]
        return (open, Array(closing.values))
    }
}
