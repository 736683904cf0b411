import ResolveKitRedis

/// The names the Redis store gives its fields (in the key's `state` hash) and journal entries.
enum RedisStateKeys {
    /// The session record's JSON, as `session.json` holds it in a folder.
    static let session = "session"
    /// The device id.
    static let deviceID = "device_id"

    /// A journal entry's field (and undelivered member): the session and the call, as the journal keys entries.
    static func entry(_ key: CallJournal.Key) -> String { key.sessionID + "/" + key.callID.rawValue }
}

extension RedisStateStore {
    /// The fenced script's operations for one write. Each journal entry is its JSON line (with its admission order,
    /// `seq`) under its call's field; a call stays in the undelivered set from its admission until it is settled, so
    /// the sweep finds a key whose replica died with a call running (it owes an interrupted result) as well as one
    /// with a result not yet acknowledged.
    static func change(for write: StateWrite) -> RedisStateChange {
        var change = RedisStateChange()
        switch write {
        case .appendJournal(let entries, let forgotten):
            for entry in entries { put(entry, into: &change) }
            for key in forgotten { change.operations.append(.removeJournalEntry(callID: RedisStateKeys.entry(key))) }
        case .replaceJournal(let entries):
            change.operations.append(.clearJournal)
            for entry in entries { put(entry, into: &change) }
        case .session(let record?):
            let json = record.json.serialized(options: .sortedKeys)
            change.operations.append(.setField(name: RedisStateKeys.session, value: json))
        case .session(nil):
            change.operations.append(.removeField(name: RedisStateKeys.session))
        }
        return change
    }

    private static func put(_ entry: CallJournal.Entry, into change: inout RedisStateChange) {
        var line = entry.json.objectValue ?? [:]
        line["seq"] = .number(Double(entry.sequence))
        let field = RedisStateKeys.entry(entry.key)
        change.putJournalEntry(callID: field, line: JSONValue.object(line).serialized(options: .sortedKeys))
        if entry.status == .settled {
            change.markDelivered(callID: field)
        } else {
            change.markUndelivered(callID: field)
        }
    }

    /// What the last owner left, from one atomic read: the journal in admission order (calls left unfinished are
    /// resolved by the session machine), and the session record.
    static func restored(from stored: RedisStoredState) -> Restored {
        let lines = stored.journal.values.compactMap { try? JSONValue(parsing: Array($0.utf8)) }
            .sorted { ($0["seq"]?.doubleValue ?? 0) < ($1["seq"]?.doubleValue ?? 0) }
        let session = stored.fields[RedisStateKeys.session]
            .flatMap { try? JSONValue(parsing: Array($0.utf8)) }
            .flatMap(SessionRecord.init(json:))
        return Restored(session: session, journal: CallJournal(lines: lines), journalRecords: lines.count)
    }
}

extension RedisStoredState {
    /// The device id stored for the key, if any.
    var deviceID: String? { fields[RedisStateKeys.deviceID].flatMap { $0.isEmpty ? nil : $0 } }
}
