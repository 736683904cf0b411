import Foundation
import Synchronization

/// Where the runtime keeps what must survive a restart: the device id, the session and its cursor, and the call
/// journal. Files are replaced atomically (write, then rename), so a crash leaves the old or the new version.
///
/// With no directory everything stays in memory for the life of the runtime.
final class RuntimeStateStore: Sendable {
    /// The session a runtime last used.
    struct SessionRecord: Equatable, Sendable {
        var sessionID: String
        var cursor: String?
    }

    let directory: String?
    private let memory = Mutex<(session: SessionRecord?, deviceID: String?)>((nil, nil))
    private let journalFile = Mutex<JournalFile?>(nil)  // opened on the first write

    init(directory: String?) {
        self.directory = directory
    }

    func loadDeviceID() -> String? {
        guard let directory else { return memory.withLock { $0.deviceID } }
        let text = (try? String(contentsOfFile: directory + "/device-id", encoding: .utf8))?
            .trimmingCharacters(in: .whitespacesAndNewlines)
        return text?.isEmpty == false ? text : nil
    }

    func saveDeviceID(_ deviceID: String) throws {
        memory.withLock { $0.deviceID = deviceID }
        try write(Array((deviceID + "\n").utf8), to: "device-id")
    }

    func loadSession() -> SessionRecord? {
        guard directory != nil else { return memory.withLock { $0.session } }
        guard let json = read("session.json"), let sessionID = json["session_id"]?.stringValue else { return nil }
        return SessionRecord(sessionID: sessionID, cursor: json["cursor"]?.stringValue)
    }

    func saveSession(_ record: SessionRecord?) throws {
        memory.withLock { $0.session = record }
        guard let record else {
            try remove("session.json")
            return
        }
        var json: JSONObject = ["session_id": .string(record.sessionID)]
        json["cursor"] = record.cursor.map(JSONValue.string) ?? .null
        try write(JSONValue.object(json).serializedBytes(options: .sortedKeys), to: "session.json")
    }

    /// The journal from `journal.jsonl`: one line per change, the last line of a call wins. Empty in memory mode
    /// (the engine holds the live journal; a new runtime starts a new one).
    func loadJournal() -> CallJournal {
        guard let directory, let data = StateFileReader.contents(atPath: directory + "/journal.jsonl") else {
            return CallJournal()
        }
        let lines = data.split(separator: UInt8(ascii: "\n")).compactMap { try? JSONValue(parsing: $0) }
        return CallJournal(lines: lines)
    }

    /// Appends the journal's changed entries as lines (O(1) per change, unlike rewriting the whole file), and
    /// rewrites the file from `journal`'s current entries once it has grown to four times their number.
    func appendJournal(_ journal: inout CallJournal) throws {
        let changed = journal.takeChangedEntries()
        guard let directory, !changed.isEmpty else { return }
        try journalFile.withLock { file in
            if file == nil { file = try JournalFile(directory: directory) }
            var bytes: [UInt8] = []
            for entry in changed {
                bytes += entry.json.serializedBytes(options: .sortedKeys)
                bytes.append(UInt8(ascii: "\n"))
            }
            guard let file else { return }
            try file.append(bytes, lines: changed.count)
            if file.lineCount > max(1024, journal.entries.count * 4) {
                try file.rewrite(journal.lines)
            }
        }
    }

    private func read(_ name: String) -> JSONValue? {
        guard let directory, let data = StateFileReader.contents(atPath: directory + "/" + name) else { return nil }
        return try? JSONValue(parsing: data)
    }

    private func write(_ bytes: [UInt8], to name: String) throws {
        guard let directory else { return }
        try FileManager.default.createDirectory(
            atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try Data(bytes).write(to: URL(fileURLWithPath: directory + "/" + name), options: .atomic)
    }

    private func remove(_ name: String) throws {
        guard let directory else { return }
        let path = directory + "/" + name
        if FileManager.default.fileExists(atPath: path) { try FileManager.default.removeItem(atPath: path) }
    }
}
