import Synchronization

/// One user key's lease, held by this process: renewed well before it runs out, on the injected clock.
///
/// Take one with ``acquire(_:in:holder:duration:clock:onStatusChange:)``, run ``keepRenewed()`` in a child task for
/// as long as the key is served, and ``release()`` at the end; or let
/// ``withLease(_:in:holder:duration:clock:onStatusChange:_:)`` do all three. Every write for the key carries
/// ``token``. Before starting a call, ask ``mayStartCalls()``: it turns false before the lease can run out when
/// renewals fail, and at once when the lease is lost, so the owner stops starting calls it could not journal.
public final class RedisLease: Sendable {
    /// Where the lease is, as reported to `onStatusChange`.
    public enum Status: Sendable, Hashable {
        /// Held and renewed on time.
        case held
        /// The last renewal failed (the message says why); calls may still start until ``RedisLease/mayStartCalls()``
        /// turns false, and renewals are retried.
        case renewalFailing(String)
        /// Another holder took it (named when known): stop serving the key.
        case lost(holder: String?)
        /// Given up by this process.
        case released
    }

    /// The grant: user key, holder and fencing token.
    public let grant: RedisLeaseGrant
    let store: RedisLeaseStore
    let time: RedisTime
    let machine: Mutex<StateMachine>
    let onStatusChange: @Sendable (Status) -> Void

    /// The fencing token every write for the key must carry.
    public var token: Int64 { grant.token }

    private init(
        grant: RedisLeaseGrant, store: RedisLeaseStore, time: RedisTime, acquiredAt: Duration,
        onStatusChange: @escaping @Sendable (Status) -> Void
    ) {
        self.grant = grant
        self.store = store
        self.time = time
        self.machine = Mutex(StateMachine(acquiredAt: acquiredAt, duration: grant.duration))
        self.onStatusChange = onStatusChange
    }

    /// Takes `userKey`'s lease.
    ///
    /// - Parameters:
    ///   - userKey: The user key.
    ///   - store: Where leases live.
    ///   - holder: This process's holder id, unique per process.
    ///   - duration: The lease length, e.g. 5 s.
    ///   - clock: The clock of renewals and of ``mayStartCalls()``.
    ///   - onStatusChange: Called when the status changes (renewal failing, lost, released); keep it short.
    /// - Throws: ``RedisError`` with ``RedisError/Code/leaseHeld`` naming the holder when another process has it.
    public static func acquire<C: Clock>(
        _ userKey: String, in store: RedisLeaseStore, holder: String, duration: Duration, clock: C,
        onStatusChange: @escaping @Sendable (Status) -> Void = { _ in }
    ) async throws(RedisError) -> RedisLease where C.Duration == Duration {
        let time = RedisTime(clock)
        let sentAt = time.now()
        let grant = try await store.acquire(userKey, holder: holder, duration: duration)
        return RedisLease(grant: grant, store: store, time: time, acquiredAt: sentAt, onStatusChange: onStatusChange)
    }

    /// Takes the lease, runs `body` while renewing it, and releases it whatever `body` does.
    ///
    /// - Throws: What ``acquire(_:in:holder:duration:clock:onStatusChange:)`` or `body` throws; a failed release is
    ///   not thrown (the lease then runs out by itself) but reported to `onStatusChange` as ``Status/released``.
    public static func withLease<C: Clock, T: Sendable>(
        _ userKey: String, in store: RedisLeaseStore, holder: String, duration: Duration, clock: C,
        onStatusChange: @escaping @Sendable (Status) -> Void = { _ in },
        _ body: (RedisLease) async throws -> T
    ) async throws -> T where C.Duration == Duration {
        let lease = try await acquire(
            userKey, in: store, holder: holder, duration: duration, clock: clock, onStatusChange: onStatusChange)
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await lease.keepRenewed() }
            do {
                let result = try await body(lease)
                group.cancelAll()
                try? await lease.release()
                return result
            } catch {
                group.cancelAll()
                try? await lease.release()
                throw error
            }
        }
    }

    /// The status now.
    public var status: Status {
        switch machine.withLock({ $0.phase }) {
        case .held: return .held
        case .failing(let reason): return .renewalFailing(reason)
        case .lost(let holder): return .lost(holder: holder)
        case .released: return .released
        }
    }

    /// Whether a new call may start now for this key.
    public func mayStartCalls() -> Bool {
        let now = time.now()
        return machine.withLock { $0.mayStartCalls(at: now) }
    }

    /// How long calls may still start (zero or less: not any more).
    public var startWindow: Duration {
        let now = time.now()
        return machine.withLock { $0.mayStartCalls(at: now) ? $0.mayStartCallsUntil - now : .zero }
    }

    /// Renews the lease until it is lost or released, or the task is cancelled; while Redis cannot be reached it
    /// goes on trying (``mayStartCalls()`` turns false meanwhile), and takes the lease back once Redis answers if no
    /// other holder took it. Run it in a child task.
    public func keepRenewed() async {
        while true {
            let now = time.now()
            let (action, before) = machine.withLock { machine in
                let before = machine.phase
                return (machine.next(at: now), before)
            }
            report(from: before)
            switch action {
            case .stop:
                return
            case .wait(let until):
                do { try await time.sleepUntil(until) } catch { return }
            case .renew:
                let sentAt = time.now()
                let before = machine.withLock { $0.phase }
                do throws(RedisError) {
                    try await store.renew(grant)
                    machine.withLock { $0.renewed(sentAt: sentAt) }
                } catch {
                    if error.code == .cancelled { return }
                    let failedAt = time.now()
                    machine.withLock {
                        $0.renewalFailed(
                            at: failedAt, lost: error.code == .leaseLost, holder: error.holder,
                            reason: error.description)
                    }
                }
                report(from: before)
            }
        }
    }

    /// Gives the lease up (only if still held by this grant) and stops ``mayStartCalls()``.
    ///
    /// - Throws: ``RedisError`` when Redis could not be told; the lease then runs out by itself.
    public func release() async throws(RedisError) {
        let before = machine.withLock { machine in
            defer { machine.released() }
            return machine.phase
        }
        report(from: before)
        try await store.release(grant)
    }

    private func report(from before: StateMachine.Phase) {
        let after = machine.withLock { $0.phase }
        guard after != before else { return }
        onStatusChange(status)
    }
}
