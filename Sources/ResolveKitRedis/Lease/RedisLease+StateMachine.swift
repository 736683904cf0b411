extension RedisLease {
    /// When to renew, and until when calls may start: the decisions of a held lease, as a pure value.
    ///
    /// Times are offsets on the lease's clock. After an acquisition or renewal *sent* at `t` the lease runs at
    /// least until `t + duration` on the server (it applies `PX` after receiving), so the owner counts from `t`.
    /// Renewal is due at a third of the lease; calls may start until `duration - margin` after it, where the margin
    /// (a third of the lease) leaves a call that just started time for its first fenced write. A failed renewal is
    /// retried every tenth of the lease, also after the lease ran out on this side: the renewal script takes an
    /// expired lease back (same token) when no other holder took it, so a replica cut off from Redis for a while
    /// keeps its keys unless another replica wanted them. It is lost only when Redis names another holder.
    struct StateMachine: Sendable {
        enum Phase: Sendable, Equatable {
            case held
            case failing(String)
            case lost(holder: String?)
            case released
        }

        enum Action: Sendable, Equatable {
            /// Send a renewal now.
            case renew
            /// Nothing to do before this offset.
            case wait(until: Duration)
            /// The lease is over (lost or released): stop renewing.
            case stop
        }

        let duration: Duration
        private(set) var phase = Phase.held
        /// The end of the lease as last extended (counted from when the request was sent).
        private(set) var expiresAt: Duration
        private(set) var nextRenewalAt: Duration

        init(acquiredAt: Duration, duration: Duration) {
            self.duration = duration
            self.expiresAt = acquiredAt + duration
            self.nextRenewalAt = acquiredAt + duration / 3
        }

        /// The last moment a new call may start.
        var mayStartCallsUntil: Duration { expiresAt - duration / 3 }

        /// Whether a call may start at `now`: the lease is held (or its renewal is failing but time is left).
        func mayStartCalls(at now: Duration) -> Bool {
            switch phase {
            case .held, .failing: return now < mayStartCallsUntil
            case .lost, .released: return false
            }
        }

        /// What to do at `now`.
        mutating func next(at now: Duration) -> Action {
            switch phase {
            case .lost, .released:
                return .stop
            case .held, .failing:
                return now >= nextRenewalAt ? .renew : .wait(until: nextRenewalAt)
            }
        }

        /// A renewal sent at `sentAt` succeeded.
        mutating func renewed(sentAt: Duration) {
            guard phase == .held || isFailing else { return }
            phase = .held
            expiresAt = sentAt + duration
            nextRenewalAt = sentAt + duration / 3
        }

        /// A renewal failed at `now`: `lost` when the server says another holder took the lease, otherwise (a timeout,
        /// a broken connection) retried a tenth of the lease later.
        mutating func renewalFailed(at now: Duration, lost: Bool, holder: String?, reason: String) {
            guard phase == .held || isFailing else { return }
            if lost {
                phase = .lost(holder: holder)
                return
            }
            phase = .failing(reason)
            nextRenewalAt = now + duration / 10
        }

        /// The owner gave the lease up.
        mutating func released() {
            phase = .released
        }

        private var isFailing: Bool {
            if case .failing = phase { return true }
            return false
        }
    }
}
