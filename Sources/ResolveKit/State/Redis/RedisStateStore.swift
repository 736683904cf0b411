import Foundation
import ResolveKitRedis
import Synchronization

/// The ``SessionStateStore`` replicas share: one user key's device id, session record and call journal in Redis
/// (``RedisLeaseKeys``), owned by one replica at a time through the key's lease.
///
/// ``acquire()`` takes the lease (another live holder → ``ResolveKitError/Code/keyOwnedElsewhere`` at once, naming
/// it) and reads everything stored in one atomic script; the lease is renewed while the run lasts and given up by
/// ``release()``. Each ``StateWrite`` is one fenced script (one round trip) carrying the lease's token, so once
/// another replica took the key this one's writes are refused and its run ends. A write that failed on the way
/// (a timeout, a broken connection) is sent again while the lease lasts: it sets values, so twice is once.
/// ``startRefusal()`` stops new calls from the moment the lease can no longer cover their first write.
final class RedisStateStore: SessionStateStore {
    /// The lease and what the acquisition read.
    private struct Held: Sendable {
        var lease: RedisLease
        var renewal: Task<Void, Never>
        var restored: Restored
        var deviceID: String?
    }

    let userKey: String
    /// This store's holder id: the replica's name and an instance id, so two runtimes in one process never share a
    /// lease.
    let holder: String
    let settings: ReplicaSettings
    /// The journal's hash loses a call's field when the journal forgets the call: never rewritten whole.
    var journalKeepsEveryRecord: Bool { false }
    private let leases: Result<RedisLeaseStore, ResolveKitError>
    private let held = Mutex<Held?>(nil)

    init(url: URL, prefix: String, userKey: String, settings: ReplicaSettings) {
        self.userKey = userKey
        self.settings = settings
        let instance = String(UInt32.random(in: 0...UInt32.max), radix: 16)
        self.holder = settings.name.replacingOccurrences(of: "#", with: "_") + "#" + instance
        self.leases = Result { () throws(ResolveKitError) in
            try RedisConnections.leases(at: url, prefix: prefix, settings: settings)
        }
    }

    func acquire() async throws(ResolveKitError) {
        let leases = try leases.get()
        let lease: RedisLease
        do {
            lease = try await RedisLease.acquire(
                userKey, in: leases, holder: holder, duration: settings.leaseDuration, clock: ContinuousClock())
        } catch {
            if error.code == .leaseHeld {
                throw Self.ownedElsewhere(KeyOwner(holder: error.holder ?? "?", leaseRemaining: error.remaining))
            }
            throw Self.unreachable(error, doing: "take the user key's lease")
        }
        let stored: RedisStoredState
        do {
            stored = try await leases.read(userKey)
        } catch {
            try? await lease.release()
            throw Self.unreachable(error, doing: "read the user key's state")
        }
        // Ended by release(): the lease lives exactly as long as the run that acquired it.
        let renewal = Task { await lease.keepRenewed() }
        held.withLock {
            $0 = Held(lease: lease, renewal: renewal, restored: Self.restored(from: stored), deviceID: stored.deviceID)
        }
    }

    func release() async {
        guard let held = held.withLock({ $0.take() }) else { return }
        held.renewal.cancel()
        await held.renewal.value
        _ = await Self.shielded { () async throws(RedisError) in try await held.lease.release() }
    }

    /// What the acquisition read; handed over once (the machine keeps the journal from then on).
    func restore() async -> Restored {
        held.withLock { held in
            defer { held?.restored = Restored() }
            return held?.restored
        } ?? Restored()
    }

    func apply(_ write: StateWrite) async throws(ResolveKitError) {
        try await fencedWrite(Self.change(for: write))
    }

    func deviceID(orStore generated: String) async throws(ResolveKitError) -> String {
        if let stored = held.withLock({ $0?.deviceID }) { return stored }
        try await fencedWrite(RedisStateChange([.setField(name: RedisStateKeys.deviceID, value: generated)]))
        held.withLock { $0?.deviceID = generated }
        return generated
    }

    func startRefusal() -> ResolveKitFunctionError? {
        guard let lease = held.withLock({ $0?.lease }) else { return nil }
        if lease.mayStartCalls() { return nil }
        return .cancelled(
            "Not started: this replica's lease on the user's state is about to run out (Redis did not answer its "
                + "renewals) or another replica took it")
    }

    func ownershipLost() -> ResolveKitError? {
        guard let lease = held.withLock({ $0?.lease }), case .lost(let holder) = lease.status else { return nil }
        return Self.ownedElsewhere(KeyOwner(holder: holder ?? "another replica"))
    }

    /// Sends `change` with the lease's token; sends it again after a failure on the way while the lease lasts. A
    /// write cut off by the run's end (its task cancelled) is sent again in a task of its own: the run's last writes
    /// (a cancelled call's outcome, the cursor) must still reach Redis.
    private func fencedWrite(_ change: RedisStateChange) async throws(ResolveKitError) {
        guard let lease = held.withLock({ $0?.lease }), let leases = try? leases.get() else {
            throw ResolveKitError(.stateStore, "The user key's state is not held by this run")
        }
        let userKey = self.userKey
        let write: @Sendable () async throws(RedisError) -> Void = {
            try await leases.write(userKey, token: lease.token, change)
        }
        let clock = ContinuousClock()
        let giveUpAt = clock.now.advanced(by: settings.leaseDuration)
        var delay = Duration.milliseconds(25)
        while true {
            do throws(RedisError) {
                do throws(RedisError) {
                    // Directly on the caller's task: a task of its own per write costs a hop on a busy machine.
                    guard !Task.isCancelled else { throw RedisError(.cancelled, "The run is ending") }
                    try await write()
                } catch where error.code == .cancelled {
                    try await Self.shielded(write).get()
                }
                return
            } catch {
                if error.code == .fencedOut { throw await ownerAfterFencing(lease, leases) }
                let transient: Set<RedisError.Code> = [.timeout, .connectionLost, .connectRefused, .connectFailed]
                guard transient.contains(error.code), clock.now.advanced(by: delay) < giveUpAt,
                    lease.status != .released, !Task.isCancelled
                else { throw Self.unreachable(error, doing: "write the user key's state") }
                try? await clock.sleep(for: delay)
                delay = min(delay * 2, .milliseconds(500))
            }
        }
    }

    /// Runs one exchange with Redis in a task of its own: a run ends by cancellation, and its last writes (a cancelled
    /// call's outcome, the cursor) and the lease's release must still reach Redis; the command timeout bounds it.
    static func shielded<T: Sendable>(_ body: @escaping @Sendable () async throws(RedisError) -> T) async
        -> Result<T, RedisError>
    {
        await Task {
            do throws(RedisError) {
                return .success(try await body())
            } catch {
                return .failure(error)
            }
        }.value
    }

    /// The ``ResolveKitError/Code/keyOwnedElsewhere`` error of a refused write, naming who holds the key now.
    private func ownerAfterFencing(_ lease: RedisLease, _ leases: RedisLeaseStore) async -> ResolveKitError {
        if case .lost(let holder?) = lease.status { return Self.ownedElsewhere(KeyOwner(holder: holder)) }
        let now = try? await leases.read(userKey)
        return Self.ownedElsewhere(
            KeyOwner(
                holder: now?.holder ?? "another replica (its lease has ended)", leaseRemaining: now?.leaseRemaining))
    }

    static func ownedElsewhere(_ owner: KeyOwner) -> ResolveKitError {
        ResolveKitError(
            .keyOwnedElsewhere,
            "Replica \(owner.replica) owns this user key's session"
                + (owner.leaseRemaining.map { " (its lease runs \($0) more)" } ?? "")
                + "; send the request to that replica, or retry once its lease has ended",
            isRetryable: true, underlying: owner)
    }

    static func unreachable(_ error: RedisError, doing what: String) -> ResolveKitError {
        // Redis down or slow is worth a retry later, as an unreachable backend is.
        ResolveKitError(
            .stateStore, "Cannot \(what) in Redis: \(error.description)", isRetryable: true, underlying: error)
    }
}
