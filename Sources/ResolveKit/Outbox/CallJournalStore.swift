import Dispatch
import Synchronization

/// Where the call journal survives a restart: one record per change, appended, and now and then replaced by the
/// journal's current entries (the session machine decides when, from how much was appended). The file store is the
/// default; the memory store keeps it for the life of the runtime. Another store (a database, a replicated log)
/// conforms without touching the session.
protocol CallJournalStore: Sendable {
    /// The journal as last saved (empty when there is none or it cannot be read; records that do not parse are
    /// skipped), and how many records the store holds for it.
    func load() -> (journal: CallJournal, records: Int)
    /// Appends the entries that changed, one record each (the last record of a call wins), and deletes the records
    /// of the calls in `forgotten` if the store can (a file keeps them until it is replaced).
    func append(_ changed: [CallJournal.Entry], forgetting forgotten: [CallJournal.Key]) throws(ResolveKitError)
    /// Replaces every record with one per entry of `entries`, oldest first (a store may finish it later: nothing
    /// waits for it, and records appended meanwhile are kept).
    func replace(with entries: [CallJournal.Entry]) throws(ResolveKitError)
    /// Returns once a replacement still running has finished: before another process may take the journal over.
    func waitForCompaction()
}

/// The journal in `<state>/journal.jsonl`: one JSON line per change, appended; replaced atomically (a new file
/// renamed over the old one) when the session machine compacts it. The replacement is written on a queue of its
/// own, so a session never waits for thousands of lines and an `fsync`: lines appended meanwhile go to the old file
/// and are kept to be added to the new one before it takes the old one's place, and a crash at any moment leaves a
/// file with every line.
final class FileCallJournalStore: CallJournalStore {
    let directory: String
    private struct State {
        var file: JournalFile?  // opened on the first write
        /// Lines appended since the running compaction took its entries; `nil` when none runs.
        var appendedDuringCompaction: [UInt8]?
        var compactionFailure: JournalFile.Failure?
    }
    private let state = Mutex(State())
    private let compactions = DispatchQueue(label: "resolvekit.journal-compaction", qos: .utility)

    init(directory: String) {
        self.directory = directory
    }

    func load() -> (journal: CallJournal, records: Int) {
        guard let data = StateFileReader.contents(atPath: directory + "/journal.jsonl") else {
            return (CallJournal(), 0)
        }
        let lines = data.split(separator: UInt8(ascii: "\n"))
        return (CallJournal(lines: lines.compactMap { try? JSONValue(parsing: $0) }), lines.count)
    }

    /// Appends the lines; a compaction that failed since the last append is reported here (the file still holds
    /// every line; it is only longer than it needs to be). Forgotten calls keep their lines until the next
    /// compaction, which leaves them out.
    func append(
        _ changed: [CallJournal.Entry], forgetting forgotten: [CallJournal.Key]
    ) throws(ResolveKitError) {
        guard !changed.isEmpty else { return }
        var bytes: [UInt8] = []
        for entry in changed {
            bytes += entry.json.serializedBytes(options: .sortedKeys)
            bytes.append(UInt8(ascii: "\n"))
        }
        let failure = try withFile { state throws(JournalFile.Failure) in
            try state.file?.append(bytes)
            state.appendedDuringCompaction? += bytes
            defer { state.compactionFailure = nil }
            return state.compactionFailure
        }
        if let failure { throw ResolveKitError(.stateStore, failure.description, underlying: failure) }
    }

    /// Starts replacing the file with `entries` and returns; while one replacement runs, another is not started
    /// (the running one compacts the file as much).
    func replace(with entries: [CallJournal.Entry]) throws(ResolveKitError) {
        let starts = try withFile { state throws(JournalFile.Failure) -> Bool in
            guard state.appendedDuringCompaction == nil else { return false }
            state.appendedDuringCompaction = []
            return true
        }
        guard starts else { return }
        compactions.async { [self] in compact(entries) }
    }

    func waitForCompaction() {
        compactions.sync {}
    }

    private func compact(_ entries: [CallJournal.Entry]) {
        var replacement: JournalFile.Replacement?
        do {
            // Oldest first, as the journal admits them again when the file is loaded.
            let ordered = entries.sorted { $0.sequence < $1.sequence }
            replacement = try JournalFile.Replacement(directory: directory, lines: ordered.map(\.json))
            try state.withLock { (state: inout State) throws(JournalFile.Failure) in
                defer { state.appendedDuringCompaction = nil }
                try replacement?.append(state.appendedDuringCompaction ?? [])
                try state.file?.take(replacement)
                replacement = nil
            }
        } catch {
            replacement?.discard()
            state.withLock {
                $0.appendedDuringCompaction = nil
                $0.compactionFailure = error
            }
        }
    }

    private func withFile<Result: Sendable>(
        _ body: (inout State) throws(JournalFile.Failure) -> Result
    ) throws(ResolveKitError) -> Result {
        do {
            return try state.withLock { (state: inout State) throws(JournalFile.Failure) -> Result in
                if state.file == nil { state.file = try JournalFile(directory: directory) }
                return try body(&state)
            }
        } catch {
            throw ResolveKitError(.stateStore, error.description, underlying: error)
        }
    }
}

/// The journal in memory only, for the life of the runtime object (a stop and a start keep it; a new process
/// starts a new one). It keeps its own copy of the entries, applies each change to it and deletes what the journal
/// forgets, so it never holds more than the journal and is never replaced.
final class MemoryCallJournalStore: CallJournalStore {
    private let saved = Mutex<[CallJournal.Key: CallJournal.Entry]>([:])

    func load() -> (journal: CallJournal, records: Int) {
        let lines = saved.withLock { $0.values.sorted { $0.sequence < $1.sequence }.map(\.json) }
        return (CallJournal(lines: lines), lines.count)
    }

    func append(_ changed: [CallJournal.Entry], forgetting forgotten: [CallJournal.Key]) {
        saved.withLock { saved in
            for entry in changed { saved[entry.key] = entry }
            for key in forgotten { saved[key] = nil }
        }
    }

    func waitForCompaction() {}

    /// Replaces the entries (the session machine never asks: this store deletes forgotten calls as it goes).
    func replace(with entries: [CallJournal.Entry]) {
        saved.withLock { saved in
            saved = [:]
            for entry in entries { saved[entry.key] = entry }
        }
    }
}
