/// The last `capacity` event ids seen, for dropping events a server replays after a reconnect.
///
/// A ring buffer plus a set: O(1) per id, memory bounded by `capacity` ids.
struct RecentEventIDs: Sendable {
    let capacity: Int
    private var ring: [String] = []
    private var next = 0
    private var members: Set<String> = []

    init(capacity: Int) {
        precondition(capacity > 0, "RecentEventIDs needs room for at least one id")
        self.capacity = capacity
    }

    /// Records `id`; returns `false` when it was already among the recent ids.
    mutating func insert(_ id: String) -> Bool {
        guard members.insert(id).inserted else { return false }
        if ring.count < capacity {
            ring.append(id)
        } else {
            members.remove(ring[next])
            ring[next] = id
            next = (next + 1) % capacity
        }
        return true
    }
}
