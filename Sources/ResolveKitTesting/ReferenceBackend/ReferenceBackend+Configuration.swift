public import Foundation

extension ReferenceBackend {
    /// How event ids are written: as the Redis-backed backend does (`"<unix-ms>-<seq>"`) or as its in-memory mode
    /// does (`"1"`, `"2"`, …, restarting at 1 after a restart).
    public enum EventIDStyle: Sendable, Hashable {
        /// Redis stream ids, e.g. `1795312329875-0`; the default, as in the recorded transcript.
        case redis
        /// Numbers counted per backend from 1, compared numerically on replay.
        case numeric
    }

    /// Which rows of the tool-result decision table (WireProtocol §7.4) apply to a call that is not pending.
    public enum ToolResultSemantics: Sendable, Hashable {
        /// Always 404 `No pending tool call with this ID` for a call not pending, and the dedupe keys are forgotten
        /// when the turn ends (the backend without Redis).
        case inMemory
        /// The deployed backend, the default: 200 `deduplicated:false` (result ignored) for a call not pending while
        /// any turn of the session runs, else 404; dedupe keys live 600 s after the newest one, so a result posted
        /// again right after its turn ended is 200 `deduplicated:true`.
        case redis
    }

    /// Everything a ``ReferenceBackend`` is set up with.
    public struct Configuration: Sendable {
        /// The raw API keys accepted as `Authorization: Bearer <key>`.
        public var apiKeys: Set<String>
        /// The id of the one app this backend serves (a UUID string).
        public var appID: String
        /// How long a session may be idle before it counts as expired (WireProtocol §8.1); default 30 minutes.
        public var sessionTTL: Duration
        /// The life of a chat capability token; `nil` (the default) uses ``sessionTTL`` as the real backend does.
        public var capabilityTokenTTL: Duration?
        /// The life of an SDK client token (default 900 s).
        public var clientTokenTTL: Duration
        /// The idle time after which an open event stream gets `: keep-alive` (default 15 s).
        public var keepAliveInterval: Duration
        /// How long an event stream stays open before the backend finishes it cleanly (default 300 s).
        public var streamConnectionCap: Duration
        /// How event ids look (default ``EventIDStyle/redis``).
        public var eventIDStyle: EventIDStyle
        /// How results for calls that are not pending are answered (default ``ToolResultSemantics/redis``).
        public var toolResultSemantics: ToolResultSemantics
        /// Tool-calling rounds per turn before the session is escalated (default 10).
        public var maxToolRounds: Int
        /// The scripted agent that answers user messages.
        public var script: AgentScript
        /// A model that replaces ``script`` when set (for example ``OpenAICompatibleModel``).
        public var model: (any AgentModel)?
        /// Faults to inject; the plan is shared and may be changed while the backend runs.
        public var faults: FaultPlan
        /// The clock for waits: tool-call timeouts, keep-alives, the stream cap, injected delays.
        public var clock: any Clock<Duration>
        /// The wall clock for timestamps, event ids, token claims and session expiry.
        public var now: @Sendable () -> Date

        /// Creates a configuration; every parameter has the real backend's default.
        /// - Parameters:
        ///   - apiKeys: accepted API keys (default `["rk_dev"]`).
        ///   - appID: the app id.
        ///   - sessionTTL: session idle TTL.
        ///   - capabilityTokenTTL: capability token life; `nil` = `sessionTTL`.
        ///   - clientTokenTTL: SDK client token life.
        ///   - keepAliveInterval: idle time before a keep-alive comment.
        ///   - streamConnectionCap: the life of one event-stream connection.
        ///   - eventIDStyle: the event id format.
        ///   - toolResultSemantics: the answer for results of calls that are not pending.
        ///   - maxToolRounds: tool rounds before escalation.
        ///   - script: the agent script (default ``AgentScript/default``).
        ///   - model: a model used instead of the script (default none).
        ///   - faults: the fault plan (default: none).
        ///   - clock: the clock for waits (default `ContinuousClock`).
        ///   - now: the wall clock (default `Date()`).
        public init(
            apiKeys: Set<String> = ["rk_dev"],
            appID: String = "00000000-0000-4000-8000-0000000a0001",
            sessionTTL: Duration = .seconds(30 * 60),
            capabilityTokenTTL: Duration? = nil,
            clientTokenTTL: Duration = .seconds(900),
            keepAliveInterval: Duration = .seconds(15),
            streamConnectionCap: Duration = .seconds(300),
            eventIDStyle: EventIDStyle = .redis,
            toolResultSemantics: ToolResultSemantics = .redis,
            maxToolRounds: Int = 10,
            script: AgentScript = .default,
            model: (any AgentModel)? = nil,
            faults: FaultPlan = FaultPlan(),
            clock: any Clock<Duration> = ContinuousClock(),
            now: @escaping @Sendable () -> Date = { Date() }
        ) {
            self.apiKeys = apiKeys
            self.appID = appID
            self.sessionTTL = sessionTTL
            self.capabilityTokenTTL = capabilityTokenTTL
            self.clientTokenTTL = clientTokenTTL
            self.keepAliveInterval = keepAliveInterval
            self.streamConnectionCap = streamConnectionCap
            self.eventIDStyle = eventIDStyle
            self.toolResultSemantics = toolResultSemantics
            self.maxToolRounds = maxToolRounds
            self.script = script
            self.model = model
            self.faults = faults
            self.clock = clock
            self.now = now
        }
    }
}

extension Duration {
    /// The duration in seconds as a `Double`.
    var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
