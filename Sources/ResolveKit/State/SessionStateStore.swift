/// Where one session's state outlives the process that runs it: the device id, the session record and the call
/// journal. The session machine issues its writes in order and waits for the ones exactly-once depends on (a call is
/// handed on, and a result posted, only once the journal holds it).
///
/// A local store (``RuntimeStateStore``: a folder, or memory) answers at once. A store shared by replicas answers over
/// the network: it owns the key while it runs (``acquire()`` to ``release()``), and once another process owns the
/// key it refuses writes with ``ResolveKitError/Code/keyOwnedElsewhere`` and says ``mayStartCalls`` no more.
protocol SessionStateStore: Sendable {
    /// Takes the state for this process for the life of a run: a folder's lock, or a key's lease.
    /// - Throws: ``ResolveKitError`` with ``ResolveKitError/Code/stateLocked`` or
    ///   ``ResolveKitError/Code/keyOwnedElsewhere`` when another process holds it, or
    ///   ``ResolveKitError/Code/stateStore`` when it cannot be reached.
    func acquire() async throws(ResolveKitError)
    /// Gives the state up at the end of a run.
    func release() async
    /// What the last process left.
    func restore() async -> Restored
    /// Applies one write; writes are applied in the order given.
    func apply(_ write: StateWrite) async throws(ResolveKitError)
    /// The stored device id, or `generated`, stored.
    /// - Throws: ``ResolveKitError/Code/stateStore`` when `generated` could not be stored (it is still the id to use).
    func deviceID(orStore generated: String) async throws(ResolveKitError) -> String
    /// Why this process may start no more calls, or `nil` while it may (a lease about to run out: no).
    func startRefusal() -> ResolveKitFunctionError?
    /// ``ResolveKitError/Code/keyOwnedElsewhere`` once another process took the state over while this run still
    /// holds it (its next write would be refused), else `nil`: a host checks it before it hands the run a request.
    func ownershipLost() -> ResolveKitError?
    /// Whether the journal's records stay until the journal is replaced (an append-only file): the session machine
    /// then has it compacted now and then. A store that deletes the records of forgotten calls says `false`.
    var journalKeepsEveryRecord: Bool { get }
}

extension SessionStateStore {
    func ownershipLost() -> ResolveKitError? { nil }
}

/// The store a runtime's configuration asks for: a folder or memory (``RuntimeStateStore``), or a key in Redis
/// (``RedisStateStore``: the host's key, or the program's name for a runtime of its own).
func makeStateStore(_ configuration: ResolveKitConfiguration) -> any SessionStateStore {
    if case .redis(let url, let prefix) = configuration.stateLocation {
        return RedisStateStore(
            url: url, prefix: prefix, userKey: configuration.stateKey ?? configuration.programName,
            settings: configuration.replica)
    }
    return RuntimeStateStore(directory: configuration.resolvedStateDirectory)
}

/// A store whose work is done when the call returns (a folder, or memory): the driver writes on the loop's thread,
/// with no task and no hop.
protocol LocalStateStore: SessionStateStore {
    func restoreNow() -> Restored
    func applyNow(_ write: StateWrite) throws(ResolveKitError)
    func deviceIDNow(orStore generated: String) throws(ResolveKitError) -> String
}

extension LocalStateStore {
    func restore() async -> Restored { restoreNow() }
    func apply(_ write: StateWrite) async throws(ResolveKitError) { try applyNow(write) }
    func deviceID(orStore generated: String) async throws(ResolveKitError) -> String {
        try deviceIDNow(orStore: generated)
    }
    func startRefusal() -> ResolveKitFunctionError? { nil }
}
