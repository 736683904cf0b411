import Foundation
import ResolveKitHTTP
import Synchronization

/// Runs one session: owns its ``SessionMachine`` and performs what it decides.
///
/// Every event goes into one inbox, and one loop at a time takes them out in order: it hands each to the machine and
/// performs the actions that come back before it takes the next. The loop runs on the thread that brought the
/// event when no other is running it, so a stream chunk becomes a started function, or a finished function a
/// result's `POST`, with no hop through a task queue (`SessionDriver+Loop.swift` says when it steps aside). Nothing
/// reads state, awaits, and writes state again: the machine's state changes only inside
/// ``SessionMachine/handle(_:at:)``, and the loop never awaits. What an action
/// starts (a request, the stream, a timer, a batch of calls) runs in a task the driver keeps, and comes back as an
/// event; `run()` returns only after all of them ended.
final class SessionDriver: Sendable {
    /// What the driver performs actions with.
    struct Parts: Sendable {
        let configuration: ResolveKitConfiguration
        let http: HTTPClient
        let store: any SessionStateStore
        /// The host's shared registration, or `nil` to register at every setup.
        let registration: FunctionRegistration?
        let runner: ToolCallRunner
        let output: RuntimeOutput
        let settings: SessionSettings
        /// The wire tap's subscribers: each event frame goes to them while there are any.
        let wire: EventBroadcaster<ResolveKitWireRecord>
        /// Turns' spans and the session's metrics (calls record theirs in the runner).
        let telemetry: SessionTelemetry
        var clock: ResolveKitClock { configuration.clock }
    }

    struct Core: Sendable {
        var machine: SessionMachine
        var inbox = SessionInbox()
        var tasks = SessionTasks()
        var waiters = Waiters()
        var writes = StoreWrites()
        var gauges = GaugeCounts()
        var backend: BackendClient?
        var hasFinished = false
    }

    /// Who waits for the machine: callers of ``reply(_:)`` by number, and ``run()``.
    struct Waiters: Sendable {
        var replies: [WaiterID: CheckedContinuation<Reply, Never>] = [:]
        var run: CheckedContinuation<Void, Never>?
        /// Decided calls of the tools core waiting for the machine's word to start.
        var starts: [ToolCallID: CheckedContinuation<Bool, Never>] = [:]
        private var lastID: UInt64 = 0

        /// A number for a new caller.
        mutating func nextID() -> WaiterID {
            lastID += 1
            return WaiterID(rawValue: lastID)
        }
    }

    /// The machine's queued questions and journal entries as the session's gauges last saw them, to report changes as
    /// differences.
    struct GaugeCounts: Sendable {
        var queuedAsks = 0
        var journalEntries = 0

        /// How many more questions wait behind a running turn, and entries the call journal holds, than last time.
        mutating func changes(in machine: SessionMachine) -> (queuedAsks: Int, journalEntries: Int) {
            let queued = machine.turns.queue.count
            let entries = machine.calls.journal.entries.count
            defer { (queuedAsks, journalEntries) = (queued, entries) }
            return (queued - queuedAsks, entries - journalEntries)
        }

        /// The figures, leaving zero: the session ended and gives its counts back.
        mutating func takeAll() -> (queuedAsks: Int, journalEntries: Int) {
            defer { (queuedAsks, journalEntries) = (0, 0) }
            return (queuedAsks, journalEntries)
        }
    }

    let parts: Parts
    let core: Mutex<Core>
    /// The store when it applies writes on the calling thread (found once: a cast per write costs microseconds).
    let localStore: (any LocalStateStore)?

    init(parts: Parts) {
        self.parts = parts
        localStore = parts.store as? any LocalStateStore
        core = Mutex(Core(machine: SessionMachine(settings: parts.settings, seed: UInt64.random(in: 1...UInt64.max))))
    }

    /// Runs the session until it is stopped (the calling task is cancelled), blocked or failed; every task it
    /// started has ended when it returns.
    func run() async {
        let hasAPIKey = makeBackend()
        let restored = await parts.store.restore()
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let finishedAlready = core.withLock { core -> Bool in
                    if core.hasFinished { return true }
                    core.waiters.run = continuation
                    return false
                }
                if finishedAlready { continuation.resume() }
                send(.start(restored, hasAPIKey: hasAPIKey))
            }
        } onCancel: {
            send(.stop)
        }
        await endTasks()
    }

    /// Makes the backend client when the configuration has an API key; returns whether it has. Out of line:
    /// `run()`'s frame lives as long as the session, and a task keeps its frames' memory until it ends, so what
    /// only setup needs (a copy of the configuration, the client's arguments) stays out of it.
    @inline(never) private func makeBackend() -> Bool {
        let configuration = parts.configuration
        let backend = configuration.apiKeyProvider().flatMap { $0.isEmpty ? nil : $0 }.map {
            BackendClient(
                http: parts.http, baseURL: configuration.baseURL.absoluteString, apiKey: $0,
                timeout: configuration.requestTimeout, network: configuration.network, tracer: parts.telemetry.tracer)
        }
        core.withLock { $0.backend = backend }
        return backend != nil
    }

    /// Sends the event `make` builds for a new waiter, and waits for the machine's reply to it. A cancelled caller
    /// stops waiting (the machine answers it at once).
    func reply(_ make: (WaiterID) -> SessionEvent) async -> Reply {
        let waiter = core.withLock { $0.waiters.nextID() }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Reply, Never>) in
                core.withLock { $0.waiters.replies[waiter] = continuation }
                send(make(waiter))
                if Task.isCancelled { send(.cancelled(waiter)) }
            }
        } onCancel: {
            send(.cancelled(waiter))
        }
    }

    /// Cancels every task the session started and waits until they ended.
    private func endTasks() async {
        let tasks = core.withLock { core -> [Task<Void, Never>] in
            core.writes.queue?.finish()
            return core.tasks.removeAll()
        }
        for task in tasks { task.cancel() }
        for task in tasks { await task.value }
    }

    /// Starts `body` as a task the session keeps until it ends; `immediately` runs it on this thread until its
    /// first suspension.
    @discardableResult
    func spawn(immediately: Bool, _ body: @escaping @Sendable () async -> Void) -> Task<Void, Never> {
        let id = core.withLock { $0.tasks.nextID() }
        let work: @Sendable () async -> Void = { [self] in
            await body()
            core.withLock { $0.tasks.ended(id) }
        }
        let task = immediately ? Task.immediate(operation: work) : Task(operation: work)
        core.withLock { $0.tasks.keep(task, id: id) }
        return task
    }
}
