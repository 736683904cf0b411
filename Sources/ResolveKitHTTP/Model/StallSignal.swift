import Synchronization

/// Tells an exchange in flight, from outside, that it stalled: it ends with ``HTTPError/Code/timedOut`` and the
/// connection under it is shut down, not kept for the next request. An event stream fires it when no response head
/// came within its idle timeout: over HTTP/2 the reconnect would otherwise go over the same silent connection.
public final class StallSignal: Sendable {
    private struct State {
        var fired = false
        var handler: (@Sendable () -> Void)?
    }

    private let state = Mutex(State())

    /// A signal not fired yet.
    public init() {}

    /// Whether it was fired.
    public var isFired: Bool { state.withLock { $0.fired } }

    /// Fires the signal: the exchange watching it gives up (at most once).
    public func fire() {
        let handler = state.withLock { state -> (@Sendable () -> Void)? in
            guard !state.fired else { return nil }
            state.fired = true
            defer { state.handler = nil }
            return state.handler
        }
        handler?()
    }

    /// Runs `handler` when the signal fires, at once if it already did; a later call replaces an earlier handler.
    func onFire(_ handler: @escaping @Sendable () -> Void) {
        let firedAlready = state.withLock { state -> Bool in
            if !state.fired { state.handler = handler }
            return state.fired
        }
        if firedAlready { handler() }
    }
}
