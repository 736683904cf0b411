import Synchronization

/// Faults a ``ReferenceBackend`` injects into its answers, for reliability tests and the dev server.
///
/// The plan is a shared reference: a test keeps it, hands it to the backend's configuration and changes it while
/// requests are in flight. Every fault with a count is used up one matching request (or stream) at a time.
public final class FaultPlan: Sendable {
    /// Which requests a fault applies to: a method (or any) and a path pattern where `*` matches one segment,
    /// e.g. `/v1/sessions/*/tool-results`.
    public struct Endpoint: Sendable, Hashable, CustomStringConvertible {
        /// The method, or `nil` for any.
        public var method: String?
        /// The path pattern.
        public var pathPattern: String

        /// Creates an endpoint matcher.
        public init(_ method: String? = nil, _ pathPattern: String) {
            self.method = method
            self.pathPattern = pathPattern
        }

        /// Whether a request's method and path match.
        public func matches(method: String, path: String) -> Bool {
            if let expected = self.method, expected.uppercased() != method.uppercased() { return false }
            let pattern = pathPattern.split(separator: "/", omittingEmptySubsequences: false)
            let actual = path.split(separator: "/", omittingEmptySubsequences: false)
            guard pattern.count == actual.count else { return false }
            return zip(pattern, actual).allSatisfy { $0 == "*" || $0 == $1 }
        }

        /// `METHOD pattern`.
        public var description: String { "\(method ?? "*") \(pathPattern)" }
    }

    /// How the next event-stream connections are cut.
    public enum StreamDrop: Sendable, Hashable {
        /// Abort the connection right after this many events were written.
        case afterEvents(Int)
        /// Abort the connection once this many body bytes were written (counting `: connected`), possibly
        /// mid-frame.
        case atByteOffset(Int)
    }

    struct Failure: Sendable {
        var endpoint: Endpoint
        var status: Int
        var remaining: Int
    }

    struct Delay: Sendable {
        var endpoint: Endpoint
        var duration: Duration?
        var remaining: Int
    }

    struct State: Sendable {
        var failures: [Failure] = []
        var delays: [Delay] = []
        var drops: [(drop: StreamDrop, remaining: Int)] = []
        var lostAnswers: [(endpoint: Endpoint, remaining: Int)] = []
        var duplicateReplay = false
        var stalledNow = 0
        var restartsAfterToolCalls: [Duration] = []
    }

    /// How a matching request is held before it is answered.
    enum Hold {
        case delay(Duration)
        case stall(releaseGeneration: Int)
    }

    private let state = Mutex(State())
    private let stallRelease = ChangeSignal()
    private let stallChanges = ChangeSignal()

    /// Creates an empty plan: no faults.
    public init() {}

    /// Answers the next `times` requests to `endpoint` with `status` and the body the real backend uses for it
    /// (401, 403 `chat_unavailable`, 404, 409, 410, 5xx `Internal Server Error`).
    public func fail(_ endpoint: Endpoint, status: Int, times: Int = 1) {
        state.withLock { $0.failures.append(Failure(endpoint: endpoint, status: status, remaining: times)) }
    }

    /// Holds the next `times` requests to `endpoint` for `duration` on the backend's clock before answering.
    public func delay(_ endpoint: Endpoint, by duration: Duration, times: Int = 1) {
        state.withLock { $0.delays.append(Delay(endpoint: endpoint, duration: duration, remaining: times)) }
    }

    /// Holds the next `times` requests to `endpoint` until ``releaseStalls()`` (or until the request is cancelled).
    public func stall(_ endpoint: Endpoint, times: Int = 1) {
        state.withLock { $0.delays.append(Delay(endpoint: endpoint, duration: nil, remaining: times)) }
    }

    /// Lets every stalled request proceed and removes the pending stalls.
    public func releaseStalls() {
        state.withLock { $0.delays.removeAll { $0.duration == nil } }
        stallRelease.notify()
    }

    /// Handles the next `times` requests to `endpoint` in full, then cuts the connection before the answer is
    /// complete: the client cannot tell whether its request was taken (a lost answer). A request whose answer is
    /// lost uses up no ``fail(_:status:times:)``: that applies to the retry.
    public func loseAnswer(_ endpoint: Endpoint, times: Int = 1) {
        state.withLock { $0.lostAnswers.append((endpoint, times)) }
    }

    /// Whether this request's answer is to be lost.
    func takeLostAnswer(method: String, path: String) -> Bool {
        state.withLock { state in
            guard
                let index = state.lostAnswers.firstIndex(where: {
                    $0.remaining > 0 && $0.endpoint.matches(method: method, path: path)
                })
            else { return false }
            state.lostAnswers[index].remaining -= 1
            if state.lostAnswers[index].remaining == 0 { state.lostAnswers.remove(at: index) }
            return true
        }
    }

    /// Cuts the next `connections` event streams as `drop` says.
    public func dropStream(_ drop: StreamDrop, connections: Int = 1) {
        state.withLock { $0.drops.append((drop, connections)) }
    }

    /// Restarts the backend mid-turn (``ReferenceBackend/restartMidTurn(lockHeldFor:)``) right after the next round
    /// of tool calls was emitted: the turn and its pending calls vanish, its lock stays held for `lockHeldFor`.
    public func restartAfterNextToolCalls(lockHeldFor: Duration = .seconds(600)) {
        state.withLock { $0.restartsAfterToolCalls.append(lockHeldFor) }
    }

    func takeRestartAfterToolCalls() -> Duration? {
        state.withLock { $0.restartsAfterToolCalls.isEmpty ? nil : $0.restartsAfterToolCalls.removeFirst() }
    }

    /// While on, every replayed event (those after the cursor at connect time) is written twice.
    public func duplicateEventsOnReplay(_ enabled: Bool) {
        state.withLock { $0.duplicateReplay = enabled }
    }

    /// Returns once at least `count` requests are being held by ``stall(_:times:)`` (so a test can act while a
    /// request is provably stuck, then call ``releaseStalls()``).
    public func waitForStalledRequests(count: Int) async {
        while !Task.isCancelled {
            let generation = stallChanges.generation
            if state.withLock({ $0.stalledNow }) >= count { return }
            await stallChanges.wait(after: generation)
        }
    }

    /// Removes every fault and releases stalled requests.
    public func reset() {
        state.withLock { $0 = State() }
        stallRelease.notify()
    }

    func takeFailure(method: String, path: String) -> Int? {
        state.withLock { state in
            guard
                let index = state.failures.firstIndex(where: {
                    $0.remaining > 0 && $0.endpoint.matches(method: method, path: path)
                })
            else { return nil }
            state.failures[index].remaining -= 1
            let status = state.failures[index].status
            if state.failures[index].remaining == 0 { state.failures.remove(at: index) }
            return status
        }
    }

    /// How this request is held, if a delay or stall matches it (the stall's release generation is read under
    /// the lock, so a ``releaseStalls()`` that removed the stall first can never be missed).
    func takeHold(method: String, path: String) -> Hold? {
        state.withLock { state in
            guard
                let index = state.delays.firstIndex(where: {
                    $0.remaining > 0 && $0.endpoint.matches(method: method, path: path)
                })
            else { return nil }
            state.delays[index].remaining -= 1
            let duration = state.delays[index].duration
            if state.delays[index].remaining == 0 { state.delays.remove(at: index) }
            return duration.map(Hold.delay) ?? .stall(releaseGeneration: stallRelease.generation)
        }
    }

    /// Holds the calling request until the stalls are released or the request is cancelled.
    func holdStalled(releaseGeneration: Int) async {
        state.withLock { $0.stalledNow += 1 }
        stallChanges.notify()
        await stallRelease.wait(after: releaseGeneration)
        state.withLock { $0.stalledNow -= 1 }
        stallChanges.notify()
    }

    func takeStreamDrop() -> StreamDrop? {
        state.withLock { state in
            guard !state.drops.isEmpty else { return nil }
            state.drops[0].remaining -= 1
            let drop = state.drops[0].drop
            if state.drops[0].remaining <= 0 { state.drops.removeFirst() }
            return drop
        }
    }

    var duplicatesReplay: Bool { state.withLock { $0.duplicateReplay } }
}
