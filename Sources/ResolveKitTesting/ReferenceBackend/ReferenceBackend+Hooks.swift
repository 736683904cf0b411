public import ResolveKitCore
import Synchronization

extension ReferenceBackend {
    /// When one event stream of a session was open, on the monotonic clock of this process.
    public struct StreamSpan: Sendable, Hashable {
        /// When the backend started answering the stream request.
        public var openedAt: ContinuousClock.Instant
        /// When the stream ended (cap reached, client gone, dropped); `nil` while it is open.
        public var endedAt: ContinuousClock.Instant?
    }

    /// The session's event streams so far, oldest first: the gaps between them are the client's reconnects.
    public func streamSpans(ofSession sessionID: String) -> [StreamSpan] {
        state.withLock { $0.streamSpans[sessionID] ?? [] }
    }

    /// One event as the backend retained it.
    public struct RecordedEvent: Sendable, Hashable {
        /// The event id (`id:` line and `event_id`).
        public var id: String
        /// The event type.
        public var type: String
        /// The envelope's `turn_id`.
        public var turnID: String
        /// The exact SSE frame bytes, `id: …\nevent: …\ndata: …\n\n`, as text.
        public var frame: String
        /// When the backend appended it, on this process's monotonic clock.
        public var appendedAt: ContinuousClock.Instant

        init(_ stored: StoredEvent) {
            appendedAt = stored.appendedAt
            id = stored.id
            type = stored.type
            turnID = stored.turnID
            frame = String(decoding: stored.frame, as: UTF8.self)
        }
    }

    /// The events retained for a session, oldest first (empty for an unknown session).
    public func events(inSession sessionID: String) -> [RecordedEvent] {
        events(inSession: sessionID, from: 0)
    }

    /// The events retained for a session from position `start` on, oldest first: reads a session's events
    /// incrementally without copying what was read before. Empty for an unknown session or a `start` past the end.
    ///
    /// - Parameters:
    ///   - sessionID: The session.
    ///   - start: How many of the session's events to skip.
    public func events(inSession sessionID: String, from start: Int) -> [RecordedEvent] {
        state.withLock { state in
            let events = state.sessions[sessionID.lowercased()]?.events ?? []
            return events[min(max(start, 0), events.count)...].map(RecordedEvent.init)
        }
    }

    /// The ids of every session, oldest first.
    public var sessionIDs: [String] {
        state.withLock { state in state.sessions.values.sorted { $0.createdAt < $1.createdAt }.map(\.id) }
    }

    /// The status of a session, `nil` when unknown.
    public func status(ofSession sessionID: String) -> SessionStatus? {
        state.withLock { $0.sessions[sessionID.lowercased()]?.status }
    }

    /// Sets a session's status, as the expiry task (`expired`) or the dashboard (`closed`, `escalated`) does.
    /// - Returns: `false` when the session is unknown.
    @discardableResult
    public func setStatus(_ status: SessionStatus, ofSession sessionID: String) -> Bool {
        state.withLock { state in
            guard state.sessions[sessionID.lowercased()] != nil else { return false }
            state.sessions[sessionID.lowercased()]!.status = status
            return true
        }
    }

    /// A dashboard agent's reply: stores a `human_agent` message and emits `human_message{message_id, text}`.
    /// - Returns: `false` when the session is unknown.
    @discardableResult
    public func sendHumanMessage(_ text: String, toSession sessionID: String) -> Bool {
        let date = now
        let messageID = Identifiers.uuid()
        return dashboardEvent(
            sessionID, "human_message", .object([("message_id", .string(messageID)), ("text", .string(text))])
        ) {
            $0.appendMessage(role: "human_agent", content: text, at: date)
        }
    }

    /// The dashboard's "resolve": the session becomes `closed` and `feedback_requested{immediate:true}` is emitted.
    @discardableResult
    public func resolveSession(_ sessionID: String) -> Bool {
        dashboardEvent(sessionID, "feedback_requested", .object([("immediate", .bool(true))])) { $0.status = .closed }
    }

    /// The dashboard's "take over": the session becomes `escalated` and `session_escalated{reason}` is emitted.
    @discardableResult
    public func takeOverSession(_ sessionID: String, reason: String = "An agent took over the conversation") -> Bool {
        dashboardEvent(sessionID, "session_escalated", .object([("reason", .string(reason))])) {
            $0.status = .escalated
        }
    }

    /// Appends an arbitrary event (payload members in name order) with a fresh turn and request id.
    @discardableResult
    public func injectEvent(type: String, payload: JSONValue, intoSession sessionID: String) -> Bool {
        dashboardEvent(sessionID, type, WireJSON(sorted: payload)) { _ in }
    }

    /// Makes every capability token issued so far expire now (clients must refresh via `POST /v1/sessions`).
    public func expireCapabilityTokens() {
        let nowSeconds = PythonTime.unixSeconds(now)
        state.withLock { state in
            for token in state.capabilityTokens.keys { state.capabilityTokens[token]!.expiresAt = nowSeconds }
        }
    }

    /// Simulates a restart of an in-memory backend: retained events are lost and event numbering starts again
    /// (sessions, functions and tokens are kept, as they live in the database).
    ///
    /// - Returns: The events it dropped, oldest first, by session id. They are taken under the same lock that
    ///   drops them, so a test that must account for every event misses none emitted just before the restart.
    @discardableResult
    public func restartEventNumbering() -> [String: [RecordedEvent]] {
        state.withLock { state in
            state.eventIDs.restart()
            var forgotten: [String: [RecordedEvent]] = [:]
            for id in state.sessions.keys {
                forgotten[id] = state.sessions[id]!.events.map(RecordedEvent.init)
                state.sessions[id]!.events.removeAll()
            }
            return forgotten
        }
    }

    /// Switches the app's integration on or off; every change invalidates all capability and client tokens, as
    /// the dashboard's toggle does by bumping the integration version.
    public func setIntegrationEnabled(_ enabled: Bool) {
        state.withLock { state in
            guard state.integrationEnabled != enabled else { return }
            state.integrationEnabled = enabled
            state.integrationVersion += 1
        }
    }

    private func dashboardEvent(
        _ sessionID: String, _ type: String, _ payload: WireJSON, update: (inout SessionRecord) -> Void
    ) -> Bool {
        let id = sessionID.lowercased()
        let turn = TurnContext(sessionID: id, turnID: Identifiers.uuid(), requestID: Identifiers.uuid(), text: "")
        let found = state.withLock { state in
            guard state.sessions[id] != nil else { return false }
            update(&state.sessions[id]!)
            appendEvent(turn, type, payload, state: &state)
            return true
        }
        if found { changes.notify(session: id) }
        return found
    }

    /// Cuts every open event stream now without the terminating chunk, as a network fault or a crashed backend
    /// does; clients must resume with their cursor.
    public func dropOpenStreams() {
        state.withLock { $0.streamDropGeneration += 1 }
        changes.notify()
    }
}
