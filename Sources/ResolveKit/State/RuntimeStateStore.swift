import Foundation
import Synchronization

/// The local ``SessionStateStore``: a folder (locked for a run's life, so no other runtime, in this process or
/// another, shares its session and journal) or memory. The device id and the session record are files replaced
/// atomically (write, then rename), so a crash leaves the old or the new version; the journal is
/// ``FileCallJournalStore``'s append-only file.
///
/// With no directory everything stays in memory for the life of the runtime object (a stop and a start keep it).
final class RuntimeStateStore: LocalStateStore {
    let directory: String?
    /// The call journal's store in the same place: its file in the folder, or memory.
    let journalStore: any CallJournalStore
    private let memory = Mutex<(session: SessionRecord?, deviceID: String?)>((nil, nil))
    /// The folder's lock while a run holds it.
    private let lock = Mutex<StateFolderLock?>(nil)

    init(directory: String?) {
        self.directory = directory
        self.journalStore = directory.map { FileCallJournalStore(directory: $0) } ?? MemoryCallJournalStore()
    }

    /// A folder's journal file keeps every line until it is replaced; memory deletes what the journal forgets.
    var journalKeepsEveryRecord: Bool { directory != nil }

    func acquire() throws(ResolveKitError) {
        guard let directory else { return }
        do {
            let taken = try StateFolderLock(folder: directory)
            lock.withLock { $0 = taken }
        } catch {
            let code: ResolveKitError.Code = error.isHeldByAnother ? .stateLocked : .stateStore
            throw ResolveKitError(code, error.description, underlying: error)
        }
    }

    func release() {
        // The journal's replacement renames a file in the folder: it finishes before another runtime may take it.
        journalStore.waitForCompaction()
        lock.withLock { $0 = nil }
    }

    func restoreNow() -> Restored {
        let (journal, records) = journalStore.load()
        return Restored(session: loadSession(), journal: journal, journalRecords: records)
    }

    func applyNow(_ write: StateWrite) throws(ResolveKitError) {
        switch write {
        case .appendJournal(let entries, let forgotten): try journalStore.append(entries, forgetting: forgotten)
        case .replaceJournal(let entries): try journalStore.replace(with: entries)
        case .session(let record):
            do {
                try saveSession(record)
            } catch {
                throw ResolveKitError(.stateStore, "Cannot save the session record: \(error)", underlying: error)
            }
        }
    }

    func deviceIDNow(orStore generated: String) throws(ResolveKitError) -> String {
        if let stored = loadDeviceID() { return stored }
        do {
            try saveDeviceID(generated)
        } catch {
            throw ResolveKitError(.stateStore, "Cannot save the device id: \(error)", underlying: error)
        }
        return generated
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
