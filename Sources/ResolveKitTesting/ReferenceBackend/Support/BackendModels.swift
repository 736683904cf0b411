import Foundation
import ResolveKitCore

/// A function as registered through `PUT /v1/functions/bulk`.
struct RegisteredFunction: Sendable {
    var id: String
    var name: String
    var description: String
    var parametersSchema: JSONValue
    var isActive: Bool
    var timeoutSeconds: Int
    var availability: JSONValue
    var source: String
    var packName: String?
    var requiresApproval: Bool
    var createdAt: Date

    func wire(appID: String) -> WireJSON {
        .object([
            ("id", .string(id)), ("app_id", .string(appID)), ("name", .string(name)),
            ("description", .string(description)), ("description_override", .null),
            ("parameters_schema", WireJSON(stored: parametersSchema)), ("is_active", .bool(isActive)),
            ("timeout_seconds", .int(timeoutSeconds)), ("availability", WireJSON(stored: availability)),
            ("source", .string(source)), ("pack_name", .optional(packName)),
            ("requires_approval", .bool(requiresApproval)), ("created_at", .string(PythonTime.pydantic(createdAt))),
        ])
    }
}

/// One row of a session's transcript.
struct StoredMessage: Sendable {
    var id: String
    var sequenceNumber: Int
    var role: String
    var content: String?
    var tokenCount: Int?
    var createdAt: Date

    func wire(sessionID: String) -> WireJSON {
        .object([
            ("id", .string(id)), ("session_id", .string(sessionID)), ("sequence_number", .int(sequenceNumber)),
            ("role", .string(role)), ("content", .optional(content)), ("tool_calls", .null), ("tool_call_id", .null),
            ("token_count", tokenCount.map(WireJSON.int) ?? .null),
            ("created_at", .string(PythonTime.pydantic(createdAt))),
        ])
    }
}

/// One event as retained for replay: its id, its position for cursor comparison and its frame bytes.
struct StoredEvent: Sendable {
    var id: String
    var position: EventPosition
    var type: String
    var turnID: String
    var frame: [UInt8]
    /// When it was appended, on this process's monotonic clock.
    var appendedAt: ContinuousClock.Instant = .now
}

/// A tool call the turn is waiting for.
struct PendingCall: Sendable {
    var turnID: String
    var functionName: String
    var result: ToolOutcome?
}

/// What came back for a tool call, as the model sees it.
enum ToolOutcome: Sendable, Equatable {
    case success(JSONValue)
    case failure(String)

    /// The text the model receives (WireProtocol §4.10): a string result verbatim, other JSON as `json.dumps`,
    /// errors as `{"error": "<text>"}`.
    var modelText: String {
        switch self {
        case .success(.string(let text)): text
        case .success(let value): WireJSON(sorted: value).text(.python)
        case .failure(let message): WireJSON.object([("error", .string(message))]).text(.python)
        }
    }
}

/// A session and everything the backend keeps for it.
struct SessionRecord: Sendable {
    var id: String
    var deviceID: String?
    var clientContext: JSONValue
    var llmContext: JSONValue
    var availableFunctionNames: [String]
    var locale: String
    var status: ReferenceBackend.SessionStatus
    var lastActivityAt: Date
    var createdAt: Date
    var messages: [StoredMessage] = []
    var nextSequence = 1
    var events: [StoredEvent] = []
    var feedbackSubmitted = false
    var turnsByRequestID: [String: String] = [:]
    var activeTurnID: String?
    var pendingCalls: [String: PendingCall] = [:]
    var dedupeKeys: Set<String> = []
    /// Redis mode: when the session's dedupe set expires (600 s after its newest key, §7.4).
    var dedupeKeysExpireAt: Date?
    /// A turn lost by a restart mid-turn: its lock is still held, and nothing ends it.
    var lostTurnID: String?

    mutating func appendMessage(role: String, content: String?, tokenCount: Int? = nil, at date: Date) {
        messages.append(
            StoredMessage(
                id: Identifiers.uuid(), sequenceNumber: nextSequence, role: role, content: content,
                tokenCount: tokenCount, createdAt: date))
        nextSequence += 1
    }

    /// Rows the SDK never sees (tool calls and tool results) still take sequence numbers.
    mutating func skipHiddenRows(_ count: Int) { nextSequence += count }

    /// Expired as `/events` and `/messages` see it: not active, or idle past the TTL.
    func isExpired(now: Date, ttl: Duration) -> Bool {
        status != .active || now.timeIntervalSince(lastActivityAt) > ttl.seconds
    }

    var platform: String? { clientContext["platform"]?.stringValue }
}
