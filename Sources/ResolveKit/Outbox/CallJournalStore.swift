import Synchronization

/// Where the call journal survives a restart. The file store is the default; the memory store keeps it for the
/// life of the runtime. Another store (a database, a replicated log) conforms without touching the pipeline.
protocol CallJournalStore: Sendable {
    /// The journal as last saved (empty when there is none or it cannot be read; lines that do not parse are
    /// skipped).
    func load() -> CallJournal
    /// Saves the entries that changed; `journal` is the whole current journal, for stores that compact.
    func save(changed: [CallJournal.Entry], of journal: CallJournal) throws(ResolveKitError)
}

/// The journal in `<state>/journal.jsonl`: one JSON line per change, appended (the last line of a call wins),
/// rewritten atomically from the current entries once it has grown to four times their number.
final class FileCallJournalStore: CallJournalStore {
    let directory: String
    private let file = Mutex<JournalFile?>(nil)  // opened on the first save

    init(directory: String) {
        self.directory = directory
    }

    func load() -> CallJournal {
        guard let data = StateFileReader.contents(atPath: directory + "/journal.jsonl") else { return CallJournal() }
        let lines = data.split(separator: UInt8(ascii: "\n")).compactMap { try? JSONValue(parsing: $0) }
        return CallJournal(lines: lines)
    }

    func save(changed: [CallJournal.Entry], of journal: CallJournal) throws(ResolveKitError) {
        guard !changed.isEmpty else { return }
        var bytes: [UInt8] = []
        for entry in changed {
            bytes += entry.json.serializedBytes(options: .sortedKeys)
            bytes.append(UInt8(ascii: "\n"))
        }
        do {
            try file.withLock { (file: inout JournalFile?) throws(JournalFile.Failure) in
                if file == nil { file = try JournalFile(directory: directory) }
                guard let file else { return }
                try file.append(bytes, lines: changed.count)
                if file.lineCount > max(1024, journal.entries.count * 4) { try file.rewrite(journal.lines) }
            }
        } catch {
            throw ResolveKitError(.stateStore, error.description, underlying: error)
        }
    }
}

/// The journal in memory only: a restart starts a new one.
final class MemoryCallJournalStore: CallJournalStore {
    private let saved = Mutex(CallJournal())

    func load() -> CallJournal { saved.withLock { $0 } }

    func save(changed: [CallJournal.Entry], of journal: CallJournal) {
        saved.withLock { $0 = journal }
    }
}
