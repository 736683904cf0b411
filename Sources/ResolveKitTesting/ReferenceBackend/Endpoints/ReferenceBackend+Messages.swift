import Foundation
import ResolveKitCore
import Synchronization

extension ReferenceBackend {
    /// `GET /v1/sessions/{id}/messages`: the transcript without tool rows; no expiry check (WireProtocol §4.8).
    func listMessages(_ request: LoopbackRequest, id: String) -> LoopbackResponse {
        let sessionID: String
        switch sessionPreamble(request, id: id) {
        case .success(let canonical): sessionID = canonical
        case .failure(let failure): return failure.response
        }
        guard let messages = state.withLock({ $0.sessions[sessionID]?.messages }) else {
            return BackendReply.sessionNotFound
        }
        return BackendReply.json(200, .array(messages.map { $0.wire(sessionID: sessionID) }))
    }

    /// `POST /v1/sessions/{id}/messages`: start a turn, idempotent by `request_id` (WireProtocol §4.9, §7.6).
    func postMessage(_ request: LoopbackRequest, id: String) -> LoopbackResponse {
        var issues: [ValidationIssue] = []
        var text: String?
        var requestID: String?
        var locale: String?
        switch Self.parseBody(request).flatMap({ FieldChecker.body($0) }) {
        case .failure(let issue): issues = [issue]
        case .success(var checker):
            text = checker.string("text", required: true, minLength: 1, maxLength: 32768)
            if let text, text.utf8.count > 32768, checker.issues.isEmpty {
                checker.issue(
                    "text", "value_error", "Value error, text must be at most 32768 bytes", .string(text),
                    ValidationIssue.valueErrorContext)
            }
            requestID = checker.string("request_id", required: true, minLength: 1, maxLength: 255)
            locale = checker.string("locale")
            issues = checker.issues
        }
        let sessionID: String
        switch sessionPreamble(request, id: id, bodyIssues: issues) {
        case .success(let canonical): sessionID = canonical
        case .failure(let failure): return failure.response
        }
        guard let text, let requestID else { return BackendReply.validation(issues) }
        let date = now
        let ttl = configuration.sessionTTL
        enum Outcome { case missing, expired, busy, accepted(String) }
        let outcome: Outcome = state.withLock { state in
            // Taken out while it changes: a copy written back would copy its request ids on every message.
            guard var session = state.sessions.removeValue(forKey: sessionID) else { return .missing }
            defer { state.sessions[sessionID] = session }
            guard !session.isExpired(now: date, ttl: ttl) else { return .expired }
            if let locale, !locale.isEmpty {
                session.locale = ChatLocalization.resolve([locale], fallback: session.locale)
            }
            if let turnID = session.turnsByRequestID[requestID] { return .accepted(turnID) }
            guard session.activeTurnID == nil, !state.stopped else { return .busy }
            let turnID = Identifiers.uuid()
            session.turnsByRequestID[requestID] = turnID
            session.activeTurnID = turnID
            state.counters.turnsStarted += 1
            let turn = TurnContext(sessionID: sessionID, turnID: turnID, requestID: requestID, text: text)
            state.turnTasks[turnID] = Task { await self.runTurn(turn) }
            return .accepted(turnID)
        }
        switch outcome {
        case .missing: return BackendReply.sessionNotFound
        case .expired: return BackendReply.sessionExpired
        case .busy: return BackendReply.detail(409, "A turn is already in progress")
        case .accepted(let turnID):
            return BackendReply.json(
                202,
                .object([
                    ("turn_id", .string(turnID)), ("request_id", .string(requestID)), ("status", .string("accepted")),
                ]))
        }
    }

    /// `POST /v1/sessions/{id}/feedback`: one rating per session (WireProtocol §4.11).
    func postFeedback(_ request: LoopbackRequest, id: String) -> LoopbackResponse {
        var issues: [ValidationIssue] = []
        var rating: Int?
        var comment: String?
        switch Self.parseBody(request).flatMap({ FieldChecker.body($0) }) {
        case .failure(let issue): issues = [issue]
        case .success(var checker):
            checker.forbidExtra(["rating", "comment"])
            if checker.object["rating"] == nil || checker.object["rating"]?.isNull == true {
                checker.issues.append(
                    .missing([.string("body"), .string("rating")], input: WireJSON(sorted: .object(checker.object))))
            }
            rating = checker.int("rating", range: 1...5)
            comment = checker.string("comment", maxLength: 2000)
            issues = checker.issues
        }
        let sessionID: String
        switch sessionPreamble(request, id: id, bodyIssues: issues) {
        case .success(let canonical): sessionID = canonical
        case .failure(let failure): return failure.response
        }
        guard let rating else { return BackendReply.validation(issues) }
        enum Outcome { case missing, duplicate, stored }
        let outcome: Outcome = state.withLock { state in
            guard state.sessions[sessionID] != nil else { return .missing }
            if state.sessions[sessionID]!.feedbackSubmitted { return .duplicate }
            state.sessions[sessionID]!.feedbackSubmitted = true
            return .stored
        }
        switch outcome {
        case .missing: return BackendReply.sessionNotFound
        case .duplicate: return BackendReply.detail(409, "Feedback already submitted for this session")
        case .stored:
            return BackendReply.json(
                201,
                .object([
                    ("id", .string(Identifiers.uuid())), ("session_id", .string(sessionID)), ("rating", .int(rating)),
                    ("comment", .optional(comment)), ("created_at", .string(PythonTime.pydantic(now))),
                ]))
        }
    }

    /// The life of a session's Redis dedupe set after its newest key, in seconds (§7.4).
    static let redisDedupeTTL: TimeInterval = 600

    /// `POST /v1/sessions/{id}/tool-results`: the decision table of WireProtocol §7.4 (Redis rows by default: a
    /// result for a call that is not pending is 200 while a turn runs; with ``ToolResultSemantics/inMemory`` 404).
    func postToolResult(_ request: LoopbackRequest, id: String) -> LoopbackResponse {
        var issues: [ValidationIssue] = []
        var fields: (turn: String, key: String, call: String, outcome: ToolOutcome)?
        switch Self.parseBody(request).flatMap({ FieldChecker.body($0) }) {
        case .failure(let issue): issues = [issue]
        case .success(var checker):
            let turn = checker.string("turn_id", required: true)
            let key = checker.string("idempotency_key", required: true, minLength: 1, maxLength: 255)
            let call = checker.string("call_id", required: true, minLength: 1, maxLength: 255)
            let status = checker.string("status", required: true, minLength: 1, maxLength: 32)
            let error = checker.string("error", maxLength: 4096)
            issues = checker.issues
            if let turn, let key, let call, let status {
                let outcome: ToolOutcome =
                    status == "success"
                    ? .success(checker.object["result"] ?? .null) : .failure(error ?? "Unknown error")
                fields = (turn, key, call, outcome)
            }
        }
        let sessionID: String
        switch sessionPreamble(request, id: id, bodyIssues: issues) {
        case .success(let canonical): sessionID = canonical
        case .failure(let failure): return failure.response
        }
        guard let fields, issues.isEmpty else { return BackendReply.validation(issues) }
        enum Outcome { case duplicate, delivered, notPending }
        let redisSemantics = configuration.toolResultSemantics == .redis
        let date = now
        let outcome: Outcome = state.withLock { state in
            // Taken out while it changes: a copy written back would copy its dedupe keys on every result.
            guard var session = state.sessions.removeValue(forKey: sessionID) else {
                state.count(fields.call) { $0.notPending += 1 }
                return .notPending
            }
            defer { state.sessions[sessionID] = session }
            if redisSemantics, let expiry = session.dedupeKeysExpireAt, date >= expiry {
                session.dedupeKeys.removeAll()
                session.dedupeKeysExpireAt = nil
            }
            let dedupeKey = "\(fields.turn):\(fields.call):\(fields.key)"
            if session.dedupeKeys.contains(dedupeKey) {
                state.count(fields.call) { $0.duplicates += 1 }
                return .duplicate
            }
            session.dedupeKeys.insert(dedupeKey)
            if redisSemantics { session.dedupeKeysExpireAt = date.addingTimeInterval(Self.redisDedupeTTL) }
            guard var pending = session.pendingCalls[fields.call] else {
                if redisSemantics, session.activeTurnID != nil {
                    // Redis mode stores the result for a waiter that may live in another worker, and says 200.
                    state.count(fields.call) { $0.notPending += 1 }
                    return .delivered
                }
                state.count(fields.call) { $0.notPending += 1 }
                return .notPending
            }
            if pending.result == nil {
                pending.result = fields.outcome
                session.pendingCalls[fields.call] = pending
                state.count(fields.call) { $0.accepted += 1 }
            } else {
                state.count(fields.call) { $0.ignored += 1 }
            }
            return .delivered
        }
        switch outcome {
        case .duplicate:
            return BackendReply.json(200, .object([("status", .string("ok")), ("deduplicated", .bool(true))]))
        case .notPending: return BackendReply.detail(404, "No pending tool call with this ID")
        case .delivered:
            changes.notify(session: sessionID)
            return BackendReply.json(200, .object([("status", .string("ok")), ("deduplicated", .bool(false))]))
        }
    }
}
