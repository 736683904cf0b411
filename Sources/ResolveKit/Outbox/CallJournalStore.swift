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

/// The journal in memory only, for the life of the runtime object (a stop and a start keep it; a new process
/// starts a new one).
///
/// It keeps its own copy of the entries and applies each save's changes to it: holding the runtime's journal itself
/// would share its storage, and the runtime's next change would copy every entry (O(n) per call). Once the copy has
/// grown past twice the journal (entries the journal pruned), it is taken afresh from the journal.
final class MemoryCallJournalStore: CallJournalStore {
    private let saved = Mutex<[CallJournal.Key: CallJournal.Entry]>([:])

    func load() -> CallJournal {
        CallJournal(lines: saved.withLock { $0.values.sorted { $0.sequence < $1.sequence }.map(\.json) })
    }

    func save(changed: [CallJournal.Entry], of journal: CallJournal) {
        saved.withLock { saved in
            for entry in changed { saved[entry.key] = entry }
            if saved.count > max(1024, journal.entries.count * 2) { saved = journal.entries }
        }
    }
}
