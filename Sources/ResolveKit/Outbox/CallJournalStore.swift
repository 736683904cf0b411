import Synchronization

/// Where the call journal survives a restart: one record per change, appended, and now and then replaced by the
/// journal's current entries (the session machine decides when, from how much was appended). The file store is the
/// default; the memory store keeps it for the life of the runtime. Another store (a database, a replicated log)
/// conforms without touching the session.
protocol CallJournalStore: Sendable {
    /// The journal as last saved (empty when there is none or it cannot be read; records that do not parse are
    /// skipped), and how many records the store holds for it.
    func load() -> (journal: CallJournal, records: Int)
    /// Appends the entries that changed, one record each (the last record of a call wins).
    func append(_ changed: [CallJournal.Entry]) throws(ResolveKitError)
    /// Replaces every record with one per entry of `entries`, oldest first.
    func replace(with entries: [CallJournal.Entry]) throws(ResolveKitError)
}

/// The journal in `<state>/journal.jsonl`: one JSON line per change, appended; replaced atomically (a new file
/// renamed over the old one) when the session machine compacts it.
final class FileCallJournalStore: CallJournalStore {
    let directory: String
    private let file = Mutex<JournalFile?>(nil)  // opened on the first write

    init(directory: String) {
        self.directory = directory
    }

    func load() -> (journal: CallJournal, records: Int) {
        guard let data = StateFileReader.contents(atPath: directory + "/journal.jsonl") else { return (CallJournal(), 0) }
        let lines = data.split(separator: UInt8(ascii: "\n"))
        return (CallJournal(lines: lines.compactMap { try? JSONValue(parsing: $0) }), lines.count)
    }

    func append(_ changed: [CallJournal.Entry]) throws(ResolveKitError) {
        guard !changed.isEmpty else { return }
        var bytes: [UInt8] = []
        for entry in changed {
            bytes += entry.json.serializedBytes(options: .sortedKeys)
            bytes.append(UInt8(ascii: "\n"))
        }
        try withFile { file throws(JournalFile.Failure) in try file.append(bytes) }
    }

    func replace(with entries: [CallJournal.Entry]) throws(ResolveKitError) {
        try withFile { file throws(JournalFile.Failure) in try file.rewrite(entries.map(\.json)) }
    }

    private func withFile(_ body: (JournalFile) throws(JournalFile.Failure) -> Void) throws(ResolveKitError) {
        do {
            try file.withLock { (file: inout JournalFile?) throws(JournalFile.Failure) in
                if file == nil { file = try JournalFile(directory: directory) }
                guard let file else { return }
                try body(file)
            }
        } catch {
            throw ResolveKitError(.stateStore, error.description, underlying: error)
        }
    }
}

/// The journal in memory only, for the life of the runtime object (a stop and a start keep it; a new process
/// starts a new one). It keeps its own copy of the entries and applies each change to it.
final class MemoryCallJournalStore: CallJournalStore {
    private let saved = Mutex<[CallJournal.Key: CallJournal.Entry]>([:])

    func load() -> (journal: CallJournal, records: Int) {
        let lines = saved.withLock { $0.values.sorted { $0.sequence < $1.sequence }.map(\.json) }
        return (CallJournal(lines: lines), lines.count)
    }

    func append(_ changed: [CallJournal.Entry]) {
        saved.withLock { saved in
            for entry in changed { saved[entry.key] = entry }
        }
    }

    func replace(with entries: [CallJournal.Entry]) {
        saved.withLock { saved in
            saved = [:]
            for entry in entries { saved[entry.key] = entry }
        }
    }
}
