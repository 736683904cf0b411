/// The newest `capacity` lines, oldest first: appending past the capacity overwrites the oldest in place, so a
/// runtime that logs for days pays the same per line as one that just started.
struct RecentLines: Sendable {
    let capacity: Int
    private var storage: [String] = []
    /// Where the oldest line is, once the storage is full.
    private var start = 0

    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// Adds `line` as the newest, dropping the oldest when full.
    mutating func append(_ line: String) {
        guard storage.count == capacity else { return storage.append(line) }
        storage[start] = line
        start = (start + 1) % capacity
    }

    /// The lines, oldest first.
    var lines: [String] {
        guard start > 0 else { return storage }
        return Array(storage[start...]) + storage[..<start]
    }
}
