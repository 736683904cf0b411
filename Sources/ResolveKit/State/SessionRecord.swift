/// The session a runtime last used, as `session.json` keeps it for the next process: the cursor, and whether a turn
/// of the session was declared lost, so the server may still hold its lock (§7.6).
struct SessionRecord: Equatable, Sendable {
    var sessionID: String
    var cursor: String?
    /// A turn of this session was declared lost: a `409` on the next message means its lock, not a live turn.
    var holdsLostTurnLock = false

    init(sessionID: String, cursor: String?, holdsLostTurnLock: Bool = false) {
        self.sessionID = sessionID
        self.cursor = cursor
        self.holdsLostTurnLock = holdsLostTurnLock
    }

    /// Reads the file's JSON; `nil` without a session id.
    init?(json: JSONValue) {
        guard let sessionID = json["session_id"]?.stringValue else { return nil }
        self.sessionID = sessionID
        cursor = json["cursor"]?.stringValue
        holdsLostTurnLock = json["holds_lost_turn_lock"]?.boolValue ?? false
    }

    /// The file's JSON.
    var json: JSONValue {
        var object: JSONObject = ["session_id": .string(sessionID)]
        object["cursor"] = cursor.map(JSONValue.string) ?? .null
        if holdsLostTurnLock { object["holds_lost_turn_lock"] = true }
        return .object(object)
    }
}
