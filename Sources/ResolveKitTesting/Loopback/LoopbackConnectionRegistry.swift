import Glibc
import Synchronization

/// Owns the tasks serving the server's connections: starts one per accepted socket, counts them, and on stop
/// shuts every open socket down, cancels the tasks and waits for them.
final class LoopbackConnectionRegistry: Sendable {
    /// What the server has seen so far.
    struct Counters {
        var accepted = 0
        var closed = 0
        var requests = 0
    }

    private struct Entry {
        var task: Task<Void, Never>?
        var fd: Int32
        var fdOpen = true
    }

    private struct State {
        var entries: [Int: Entry] = [:]
        var nextID = 0
        var stopping = false
        var counters = Counters()
    }

    private let state = Mutex(State())
    private let handler: LoopbackHandler
    private let limits: LoopbackRequestParser.Limits

    init(handler: @escaping LoopbackHandler, limits: LoopbackRequestParser.Limits) {
        self.handler = handler
        self.limits = limits
    }

    var counters: Counters { state.withLock { $0.counters } }

    /// Starts serving `fd` (called on the poller thread), or closes it when the server is stopping.
    func accept(_ fd: Int32, poller: LoopbackPoller) {
        let connection = LoopbackConnection(
            socket: LoopbackSocket(fd: fd, poller: poller), handler: handler, limits: limits,
            onRequest: { [weak self] in self?.state.withLock { $0.counters.requests += 1 } })
        let refused = state.withLock { state -> Bool in
            if state.stopping { return true }
            state.nextID += 1
            let id = state.nextID
            state.counters.accepted += 1
            state.entries[id] = Entry(fd: fd)
            state.entries[id]?.task = Task {
                await connection.run()
                self.finish(id)
            }
            return false
        }
        if refused { close(fd) }
    }

    /// Marks the registry stopping, ends every connection and waits for the tasks; returns `false` when an earlier
    /// call already did.
    func stopAll() async -> Bool {
        let tasks = state.withLock { state -> [Task<Void, Never>]? in
            if state.stopping { return nil }
            state.stopping = true
            for entry in state.entries.values where entry.fdOpen {
                _ = shutdown(entry.fd, Int32(SHUT_RDWR))
            }
            return state.entries.values.compactMap(\.task)
        }
        guard let tasks else { return false }
        for task in tasks {
            task.cancel()
            await task.value
        }
        return true
    }

    private func finish(_ id: Int) {
        // The descriptor is closed while holding the lock, so `stopAll` never shuts down a reused descriptor.
        state.withLock { state in
            if let entry = state.entries.removeValue(forKey: id) { close(entry.fd) }
            state.counters.closed += 1
        }
    }
}
