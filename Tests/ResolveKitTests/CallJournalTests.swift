import Foundation
import Testing

@testable import ResolveKit

struct CallJournalTests {
    let key = CallJournal.Key(sessionID: "s", callID: "c1")

    @Test func admitsACallOnceAndReportsDuplicatesWithTheirStatus() {
        var journal = CallJournal()
        #expect(journal.admit(sessionID: "s", callID: "c1", turnID: "t", functionName: "f") == .admitted)
        #expect(journal.admit(sessionID: "s", callID: "c1", turnID: "t", functionName: "f") == .duplicate(.received))
        #expect(journal.admit(sessionID: "other", callID: "c1", turnID: "t", functionName: "f") == .admitted)
        journal.markRunning(key)
        #expect(journal.admit(sessionID: "s", callID: "c1", turnID: "t", functionName: "f") == .duplicate(.running))
    }

    @Test func keepsResultsUntilSettledAndKeepsTheFirstResult() {
        var journal = CallJournal()
        _ = journal.admit(sessionID: "s", callID: "c1", turnID: "t", functionName: "f")
        let first = journal.recordResult(key, .success("first"))
        let second = journal.recordResult(key, .success("second"))
        #expect(first)
        #expect(!second)
        #expect(
            journal.undelivered == [
                ToolResultSubmission(turnID: "t", callID: "c1", idempotencyKey: "c1", outcome: .success("first"))
            ])
        journal.settle(key)
        #expect(journal.undelivered.isEmpty)
        let late = journal.recordResult(key, .success("late"))
        #expect(!late)
    }

    @Test func answersCallsInterruptedByARestartInsteadOfRunningThemAgain() {
        var journal = CallJournal()
        _ = journal.admit(sessionID: "s", callID: "c1", turnID: "t", functionName: "f")
        _ = journal.admit(sessionID: "s", callID: "c2", turnID: "t", functionName: "f")
        journal.markRunning(CallJournal.Key(sessionID: "s", callID: "c2"))
        var reloaded = CallJournal(lines: journal.lines)
        reloaded.resolveInterruptedCalls()
        #expect(reloaded.undelivered.map(\.callID) == ["c1", "c2"])
        #expect(reloaded.admit(sessionID: "s", callID: "c2", turnID: "t", functionName: "f") != .admitted)
        guard case .failure(let error) = reloaded.undelivered[1].outcome else {
            Issue.record("expected failure"); return
        }
        #expect(error.message.contains("may or may not have completed"))
    }

    @Test func roundTripsThroughJSON() {
        var journal = CallJournal()
        _ = journal.admit(sessionID: "s", callID: "a", turnID: "t", functionName: "f")
        _ = journal.admit(sessionID: "s", callID: "b", turnID: "t", functionName: "g")
        journal.recordResult(CallJournal.Key(sessionID: "s", callID: "a"), .success(["n": 1]))
        journal.recordResult(
            CallJournal.Key(sessionID: "s", callID: "b"),
            .failure(ResolveKitFunctionError(code: .init("disk_full"), message: "boom")))
        #expect(CallJournal(lines: journal.lines).undelivered == journal.undelivered)
    }

    @Test func theJournalFileGrowsByOneLinePerChangeAndIsReplacedByTheCurrentEntries() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rk-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = FileCallJournalStore(directory: directory)
        var journal = CallJournal(capacity: 50)
        for index in 0..<400 {
            let key = CallJournal.Key(sessionID: "s", callID: ToolCallID("c\(index)"))
            _ = journal.admit(sessionID: "s", callID: key.callID, turnID: "t", functionName: "f")
            journal.recordResult(key, .success(.number(Double(index))))
            journal.settle(key)
            try store.append(journal.takeChangedEntries(), forgetting: [])
        }
        let appended = try String(contentsOfFile: directory + "/journal.jsonl", encoding: .utf8)
        #expect(appended.split(separator: "\n").count == 400)
        // The machine hands the entries over in no order; the file has them oldest first.
        try store.replace(with: Array(journal.entries.values))
        store.waitForCompaction()
        let text = try String(contentsOfFile: directory + "/journal.jsonl", encoding: .utf8)
        #expect(text.split(separator: "\n").count == journal.entries.count)
        let written = text.split(separator: "\n").compactMap { try? JSONValue(parsing: String($0)) }
            .compactMap { $0["call_id"]?.stringValue.flatMap { Int($0.dropFirst()) } }
        #expect(written == Array(350..<400))
        let (reloaded, records) = store.load()
        #expect(records == journal.entries.count)
        #expect(reloaded.status(CallJournal.Key(sessionID: "s", callID: "c399")) == .settled)
        #expect(reloaded.entries.count <= 400)
    }

    @Test func forgetsTheOldestSettledCallsBeyondItsCapacity() {
        var journal = CallJournal(capacity: 3)
        for index in 0..<3 {
            _ = journal.admit(sessionID: "s", callID: ToolCallID("\(index)"), turnID: "t", functionName: "f")
            journal.settle(CallJournal.Key(sessionID: "s", callID: ToolCallID("\(index)")))
        }
        _ = journal.admit(sessionID: "s", callID: "3", turnID: "t", functionName: "f")
        #expect(journal.entries.count == 3)
        #expect(journal.status(CallJournal.Key(sessionID: "s", callID: "0")) == nil)
        #expect(journal.status(CallJournal.Key(sessionID: "s", callID: "3")) == .received)
    }

    @Test func aFullJournalForgetsItsOldestSettledCallForEachNewOneAndKeepsUnacknowledgedOnes() {
        var journal = CallJournal(capacity: 64)
        let key = { (index: Int) in CallJournal.Key(sessionID: "s", callID: ToolCallID("\(index)")) }
        for index in 0..<64 {
            _ = journal.admit(sessionID: "s", callID: ToolCallID("\(index)"), turnID: "t", functionName: "f")
            if index != 0 && index != 5 { journal.settle(key(index)) }
        }
        _ = journal.admit(sessionID: "s", callID: "64", turnID: "t", functionName: "f")
        #expect(journal.entries.count == 64)
        #expect(journal.status(key(0)) == .received, "not acknowledged: kept")
        #expect(journal.status(key(1)) == nil)
        #expect(journal.status(key(2)) == .settled)
        journal.settle(key(64))
        // Thousands of calls later, still full, in order, and the two unacknowledged calls are still there.
        for index in 65..<5_000 {
            _ = journal.admit(sessionID: "s", callID: ToolCallID("\(index)"), turnID: "t", functionName: "f")
            journal.settle(key(index))
        }
        #expect(journal.entries.count == 64)
        #expect(journal.status(key(0)) == .received)
        #expect(journal.status(key(5)) == .received)
        #expect(journal.status(key(4_937)) == nil)
        #expect((4_938..<5_000).allSatisfy { journal.status(key($0)) == .settled })
    }

    @Test func theMemoryStoreGivesBackWhatWasSavedAndDeletesWhatTheJournalForgot() throws {
        let store = MemoryCallJournalStore()
        var journal = CallJournal()
        for index in 0..<5000 {
            let key = CallJournal.Key(sessionID: "s", callID: ToolCallID("c\(index)"))
            _ = journal.admit(sessionID: "s", callID: key.callID, turnID: "t", functionName: "f")
            journal.recordResult(key, .success("done"))
            if index < 4990 { journal.settle(key) }
            store.append(journal.takeChangedEntries(), forgetting: journal.takeForgottenKeys())
        }
        let (reloaded, records) = store.load()
        #expect(records == journal.entries.count, "it holds no more than the journal")
        #expect(reloaded.undelivered == journal.undelivered)
        #expect(reloaded.undelivered.count == 10)
        #expect(reloaded.entries.count == journal.entries.count)
        #expect(reloaded.status(CallJournal.Key(sessionID: "s", callID: "c4999")) == .answered(.success("done")))
        #expect(reloaded.status(CallJournal.Key(sessionID: "s", callID: "c0")) == nil)
    }

    @Test func theJournalReportsTheCallsItForgetsOldestFirstAndOnlyOnce() {
        var journal = CallJournal(capacity: 64)
        func key(_ index: Int) -> CallJournal.Key { CallJournal.Key(sessionID: "s", callID: ToolCallID("c\(index)")) }
        var forgotten: [CallJournal.Key] = []
        for index in 0..<100 {
            _ = journal.admit(sessionID: "s", callID: key(index).callID, turnID: "t", functionName: "f")
            // The third call's result is never acknowledged: it is passed over, not forgotten.
            if index != 2 { journal.settle(key(index)) }
            forgotten += journal.takeForgottenKeys()
        }
        #expect(forgotten == [0, 1].map(key) + (3..<37).map(key))
        #expect(journal.takeForgottenKeys().isEmpty)
        #expect(journal.entries.count == 64)
        #expect(forgotten.allSatisfy { journal.status($0) == nil })
    }

    @Test func theStateStorePersistsSessionDeviceAndJournalAcrossInstances() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rk-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = RuntimeStateStore(directory: directory)
        try store.saveDeviceID("device-1")
        try store.saveSession(.init(sessionID: "s", cursor: "42-0"))
        var journal = CallJournal()
        let key = CallJournal.Key(sessionID: "s", callID: "c")
        _ = journal.admit(sessionID: "s", callID: "c", turnID: "t", functionName: "f")
        try store.journalStore.append(journal.takeChangedEntries(), forgetting: [])
        journal.recordResult(key, .success("done"))
        try store.journalStore.append(journal.takeChangedEntries(), forgetting: [])

        let reopened = RuntimeStateStore(directory: directory)
        #expect(reopened.loadDeviceID() == "device-1")
        #expect(reopened.loadSession() == .init(sessionID: "s", cursor: "42-0"))
        let (loaded, _) = reopened.journalStore.load()
        #expect(loaded.undelivered == journal.undelivered)
        #expect(loaded.status(key) == .answered(.success("done")))
        try reopened.saveSession(nil)
        #expect(RuntimeStateStore(directory: directory).loadSession() == nil)
    }

    @Test func aCallRunningWhenTheProcessStoppedIsAnsweredWithAnErrorNeverRunAgain() throws {
        let store = MemoryCallJournalStore()
        var journal = CallJournal()
        let key = CallJournal.Key(sessionID: "s", callID: "c")
        _ = journal.admit(sessionID: "s", callID: "c", turnID: "t", functionName: "f")
        journal.markRunning(key)
        store.append(journal.takeChangedEntries(), forgetting: [])
        var next = store.load().journal
        next.resolveInterruptedCalls()
        #expect(
            next.status(key)
                == .answered(
                    .failure(
                        .cancelled(
                            "Interrupted by a client restart after it was handed on to run; it may or may not have completed"
                        ))))
    }

    @Test func linesAppendedWhileTheFileIsReplacedAreInTheNewFile() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rk-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = FileCallJournalStore(directory: directory)
        var journal = CallJournal(capacity: 2_000)
        func call(_ index: Int) -> CallJournal.Key { CallJournal.Key(sessionID: "s", callID: ToolCallID("c\(index)")) }
        var next = 0
        for round in 0..<20 {
            // The replacement is written on the store's own queue while these appends go on.
            for _ in 0..<100 {
                _ = journal.admit(sessionID: "s", callID: call(next).callID, turnID: "t", functionName: "f")
                journal.settle(call(next))
                try store.append(journal.takeChangedEntries(), forgetting: [])
                next += 1
                if next % 100 == 50 {
                    try store.replace(with: journal.entries.values.sorted { $0.sequence < $1.sequence })
                }
            }
            store.waitForCompaction()
            let (reloaded, records) = store.load()
            #expect(reloaded.entries.count == next, "round \(round)")
            #expect((0..<next).allSatisfy { reloaded.status(call($0)) == .settled }, "round \(round)")
            #expect(records < next + 100, "the file was compacted (round \(round): \(records) lines)")
        }
    }

    @Test func aReplacementThatFailsIsReportedByTheNextAppendAndLosesNoLine() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rk-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = FileCallJournalStore(directory: directory)
        var journal = CallJournal()
        _ = journal.admit(sessionID: "s", callID: "c0", turnID: "t", functionName: "f")
        try store.append(journal.takeChangedEntries(), forgetting: [])
        // The replacement's file cannot be created: a folder is in its place.
        try FileManager.default.createDirectory(
            atPath: directory + "/journal.jsonl.new", withIntermediateDirectories: false)
        try store.replace(with: Array(journal.entries.values))
        store.waitForCompaction()
        _ = journal.admit(sessionID: "s", callID: "c1", turnID: "t", functionName: "f")
        let error = #expect(throws: ResolveKitError.self) {
            try store.append(journal.takeChangedEntries(), forgetting: [])
        }
        #expect(error?.code == .stateStore)
        #expect(error?.message.contains("journal.jsonl.new") == true)
        _ = journal.admit(sessionID: "s", callID: "c2", turnID: "t", functionName: "f")
        try store.append(journal.takeChangedEntries(), forgetting: [])
        let (reloaded, _) = store.load()
        #expect(reloaded.entries.count == 3, "the append that reported the failure was written too")
    }

    @Test func aJournalThatCannotBeWrittenIsAStateStoreErrorNamingTheFile() throws {
        let store = FileCallJournalStore(directory: "/proc/rk-cannot-exist")
        var journal = CallJournal()
        _ = journal.admit(sessionID: "s", callID: "c", turnID: "t", functionName: "f")
        do {
            try store.append(journal.takeChangedEntries(), forgetting: [])
            Issue.record("a journal under /proc was written")
        } catch {
            #expect(error.code == .stateStore)
            #expect(error.message.contains("/proc/rk-cannot-exist"))
        }
    }
}
