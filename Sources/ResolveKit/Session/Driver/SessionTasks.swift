/// The tasks a session driver started and keeps until they end: its timers, its event stream's reader, and every
/// other (requests, batches of calls, the loop queued behind streams, the store's writer).
struct SessionTasks: Sendable {
    private var running: [Int: Task<Void, Never>] = [:]
    /// Tasks that ended before they were kept (one that never suspends ends before `spawn` returns it).
    private var endedEarly: Set<Int> = []
    private var lastID = 0
    var timers: [TimerID: Task<Void, Never>] = [:]
    var stream: Task<Void, Never>?

    /// A number for a task about to start.
    mutating func nextID() -> Int {
        lastID += 1
        return lastID
    }

    /// Keeps the task numbered `id`, unless it ended already.
    mutating func keep(_ task: Task<Void, Never>, id: Int) {
        if endedEarly.remove(id) == nil { running[id] = task }
    }

    /// Forgets the task numbered `id`, which ended (maybe before it was kept).
    mutating func ended(_ id: Int) {
        if running.removeValue(forKey: id) == nil { endedEarly.insert(id) }
    }

    /// Every task still kept, timers included, forgetting them all.
    mutating func removeAll() -> [Task<Void, Never>] {
        defer {
            running = [:]
            timers = [:]
            stream = nil
        }
        return Array(running.values) + Array(timers.values)
    }
}
