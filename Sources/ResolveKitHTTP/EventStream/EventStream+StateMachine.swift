extension EventStream {
    /// The pure decision logic of one resumable stream: cursor, dedupe, backoff, budget, health.
    ///
    /// Time is a `Duration` since the stream started, passed in with each input; the driver owns the clock.
    package struct StateMachine {
        package enum ConnectAction: Equatable {
            /// Open a connection, resuming after `cursor` when there is one.
            case connect(cursor: String?)
        }

        package enum RetryAction: Equatable {
            /// Wait `delay` (zero: reconnect at once), then call ``reconnectDelayElapsed()``.
            case reconnect(attempt: Int, delay: Duration)
            /// Stop for good.
            case fail(EventStreamError)
        }

        package enum ResponseAction: Equatable {
            /// The stream is open: read it.
            case read
            /// The response was not usable: close it, then act.
            case retry(RetryAction)
        }

        package enum EventAction: Equatable {
            case deliver
            case dropDuplicate
        }

        package enum Ending: Equatable {
            /// The server finished the response.
            case endOfStream
            /// The idle watchdog fired.
            case idleTimeout
            /// The connection broke.
            case transport(EventStreamError)
        }

        private enum State {
            case idle
            case connecting
            case open(since: Duration, deliveredEvent: Bool)
            case waiting
            case finished
        }

        private let configuration: Configuration
        private var state = State.idle
        private var failures = 0
        private var recent: RecentEventIDs
        /// The id of the last event received; sent as `cursor` on the next connect.
        package private(set) var cursor: String?
        /// The reconnection time the server last asked for with `retry:` (``SSEParser/reconnectionTime``): the
        /// shortest wait before a retry after a failure, capped at ``Backoff/maximumDelay`` so that a server cannot
        /// park the stream. The routine reconnect after a healthy stream ended stays immediate (WireProtocol §5).
        package var serverReconnectionTime: Duration?
        /// Why the reconnect now scheduled is needed: the error of the last failure, or `nil` for the routine
        /// reconnect after a healthy stream ended.
        package private(set) var reconnectCause: EventStreamError?

        /// Out of line: `EventStream.run` makes one in a frame that lives as long as the stream, and
        /// inlined there this initialiser's temporaries stayed in that frame (0.6 KiB of every idle stream).
        @inline(never) package init(configuration: Configuration, cursor: String?) {
            self.configuration = configuration
            self.cursor = cursor
            self.recent = RecentEventIDs(capacity: configuration.recentEventIDCapacity)
        }

        package mutating func start() -> ConnectAction {
            precondition(isIdle, "start() called twice")
            state = .connecting
            return .connect(cursor: cursor)
        }

        package mutating func reconnectDelayElapsed() -> ConnectAction {
            guard case .waiting = state else { preconditionFailure("no reconnect was scheduled") }
            state = .connecting
            return .connect(cursor: cursor)
        }

        package mutating func connectFailed(_ error: any Error) -> RetryAction {
            precondition(isConnecting, "connectFailed outside connecting")
            return retry(after: EventStreamError(code: .transport, message: "Connecting failed", underlying: error))
        }

        package mutating func responded(status: Int, body: [UInt8], at now: Duration) -> ResponseAction {
            precondition(isConnecting, "responded outside connecting")
            if (200..<300).contains(status) {
                state = .open(since: now, deliveredEvent: false)
                return .read
            }
            let error = EventStreamError.httpStatus(status, body: body)
            if Self.isTerminal(status: status) {
                state = .finished
                return .retry(.fail(error))
            }
            return .retry(retry(after: error))
        }

        package mutating func received(_ event: SSEEvent) -> EventAction {
            guard case .open(let since, _) = state else { preconditionFailure("event outside an open connection") }
            state = .open(since: since, deliveredEvent: true)
            guard let id = event.id else { return .deliver }
            guard !id.isEmpty else {
                cursor = nil
                return .deliver
            }
            cursor = id
            return recent.insert(id) ? .deliver : .dropDuplicate
        }

        package mutating func connectionEnded(_ ending: Ending, at now: Duration) -> RetryAction {
            guard case .open(let since, let deliveredEvent) = state else {
                preconditionFailure("connectionEnded outside an open connection")
            }
            let healthy = deliveredEvent || now - since >= configuration.healthyAfter
            if healthy { failures = 0 }
            switch ending {
            case .endOfStream where healthy:
                state = .waiting
                reconnectCause = nil
                return .reconnect(attempt: 0, delay: .zero)
            case .endOfStream:
                return retry(after: EventStreamError(code: .endedEarly, message: "The server ended the stream early"))
            case .idleTimeout:
                return retry(after: EventStreamError(code: .idleTimeout, message: "No data within the idle timeout"))
            case .transport(let error):
                return retry(after: error)
            }
        }

        /// Whether retrying cannot change the answer: 4xx except 400 (agent not configured yet), 408 and 429.
        package static func isTerminal(status: Int) -> Bool {
            (400..<500).contains(status) && ![400, 408, 429].contains(status)
        }

        private mutating func retry(after error: EventStreamError) -> RetryAction {
            failures += 1
            reconnectCause = error
            let backoff = configuration.backoff
            if let budget = backoff.maxAttempts, failures > budget {
                state = .finished
                return .fail(
                    EventStreamError(
                        code: .attemptsExhausted, message: "Gave up after \(budget) reconnect attempts",
                        status: error.status, body: error.body, underlying: error))
            }
            state = .waiting
            var delay = backoff.delay(forAttempt: failures, unit: backoff.random())
            if let requested = serverReconnectionTime { delay = max(delay, min(requested, backoff.maximumDelay)) }
            return .reconnect(attempt: failures, delay: delay)
        }

        private var isIdle: Bool {
            if case .idle = state { true } else { false }
        }

        private var isConnecting: Bool {
            if case .connecting = state { true } else { false }
        }
    }
}
