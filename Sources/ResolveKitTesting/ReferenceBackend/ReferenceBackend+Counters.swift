extension ReferenceBackend {
    /// What happened to the results posted for one tool call (`POST /tool-results`).
    public struct ToolResultCounts: Sendable, Hashable {
        /// First results delivered to a waiting turn (exactly one for a healthy call).
        public var accepted = 0
        /// Submissions answered `deduplicated: true`.
        public var duplicates = 0
        /// Results for a pending call that already had one (different idempotency key): 200, ignored.
        public var ignored = 0
        /// Submissions for a call that was not pending: 404, or in Redis mode 200 (ignored) while a turn runs.
        public var notPending = 0

        /// Creates counts.
        public init(accepted: Int = 0, duplicates: Int = 0, ignored: Int = 0, notPending: Int = 0) {
            self.accepted = accepted
            self.duplicates = duplicates
            self.ignored = ignored
            self.notPending = notPending
        }
    }

    /// Server-side observations for reliability tests, e.g. "every result delivered exactly once".
    public struct Counters: Sendable, Hashable {
        /// Tool-result outcomes per `call_id`.
        public var toolResults: [String: ToolResultCounts] = [:]
        /// `tool_call_request` events emitted.
        public var toolCallsEmitted = 0
        /// The calls whose wait ran out before a result arrived.
        public var timedOutCalls: Set<String> = []
        /// How many calls timed out.
        public var toolCallsTimedOut: Int { timedOutCalls.count }
        /// Turns started (`POST /messages` answered with a new `turn_id`).
        public var turnsStarted = 0
        /// Turns whose background work has finished (whatever their outcome).
        public var turnsEnded = 0
        /// Turns lost to ``ReferenceBackend/restartMidTurn(lockHeldFor:)``.
        public var turnsLostToRestarts = 0
        /// Calls still waiting for their result when a restart lost their turn: the server waits for them no more.
        public var callsLostToRestarts: Set<String> = []
        /// Event-stream connections answered 200.
        public var streamConnections = 0
        /// Event-stream connections currently open.
        public var openStreams = 0
        /// `PUT /v1/functions/bulk` requests received.
        public var functionRegistrations = 0
        /// Requests handled, including rejected ones.
        public var requests = 0

        /// Creates empty counters.
        public init() {}
    }
}
