extension RedisLease {
    /// When to renew, and until when calls may start: the decisions of a held lease, as a pure value.
    ///
    /// Times are offsets on the lease's clock. After an acquisition or renewal *sent* at `t` the lease runs at
    /// least until `t + duration` on the server (it applies `PX` after receiving), so the owner counts from `t`.
    /// Renewal is due at a third of the lease; calls may start until `duration - margin` after it, where the margin
    /// (a third of the lease) leaves a call that just started time for its first fenced write. A failed renewal is
    /// retried every tenth of the lease; when the lease runs out on this side before one succeeds, it is lost.
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
                if now >= expiresAt {
                    phase = .lost(holder: nil)
                    return .stop
                }
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

        /// A renewal failed at `now`: `lost` when the server says the lease is another's or gone, otherwise (a
        /// timeout, a broken connection) retried a tenth of the lease later while the lease lasts.
        mutating func renewalFailed(at now: Duration, lost: Bool, holder: String?, reason: String) {
            guard phase == .held || isFailing else { return }
            if lost {
                phase = .lost(holder: holder)
                return
            }
            phase = .failing(reason)
            nextRenewalAt = min(now + duration / 10, expiresAt)
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
