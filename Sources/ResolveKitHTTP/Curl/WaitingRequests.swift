/// Requests posted to the curl thread and not started yet, oldest first. The thread starts a few per turn of its
/// loop (see ``CurlMultiDriver``), so a burst waits here instead of holding the thread.
struct WaitingRequests {
    private var transfers: [Transfer] = []
    private var head = 0

    /// Whether none waits.
    var isEmpty: Bool { head == transfers.count }

    /// Queues `transfer` behind the others.
    mutating func append(_ transfer: Transfer) {
        transfers.append(transfer)
    }

    /// The oldest waiting transfer, taken off the queue.
    mutating func popFirst() -> Transfer? {
        guard !isEmpty else { return nil }
        let transfer = transfers[head]
        head += 1
        if isEmpty {
            transfers.removeAll(keepingCapacity: true)
            head = 0
        }
        return transfer
    }

    /// Takes the transfer `id` off the queue, if it waits there.
    mutating func remove(id: Int) -> Transfer? {
        guard let index = transfers[head...].firstIndex(where: { $0.id == id }) else { return nil }
        return transfers.remove(at: index)
    }

    /// Takes every waiting transfer, oldest first.
    mutating func removeAll() -> [Transfer] {
        defer {
            transfers = []
            head = 0
        }
        return Array(transfers[head...])
    }
}
