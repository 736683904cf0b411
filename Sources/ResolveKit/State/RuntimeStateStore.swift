import Foundation
import Synchronization

/// Where the runtime keeps what must survive a restart besides the call journal (``CallJournalStore``): the device
/// id, and the session with its cursor. Files are replaced atomically (write, then rename), so a crash leaves the
/// old or the new version.
///
/// With no directory everything stays in memory for the life of the runtime.
final class RuntimeStateStore: Sendable {
    let directory: String?
    /// The call journal's store in the same place: its file in the folder, or memory (kept across a stop and a
    /// start of the same runtime, as the session and device id are).
    let journalStore: any CallJournalStore
    private let memory = Mutex<(session: SessionRecord?, deviceID: String?)>((nil, nil))

    init(directory: String?) {
        self.directory = directory
        self.journalStore = directory.map { FileCallJournalStore(directory: $0) } ?? MemoryCallJournalStore()
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
        return read("session.json").flatMap(SessionRecord.init(json:))
    }

    func saveSession(_ record: SessionRecord?) throws {
        memory.withLock { $0.session = record }
        guard let record else {
            try remove("session.json")
            return
        }
        try write(record.json.serializedBytes(options: .sortedKeys), to: "session.json")
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
