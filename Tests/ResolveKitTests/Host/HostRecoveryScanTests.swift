import Foundation
import Testing

@testable import ResolveKit

/// Which key folders a host on a state folder delivers for when it takes the folder: those the last process left
/// with a call unsettled, recently. (The delivery itself is shown with real processes in `CrashRestartTests`.)
struct HostRecoveryScanTests {
    @Test func theScanFindsRecentKeyFoldersWithUnsettledCallsOnly() throws {
        let root = FileManager.default.temporaryDirectory.path + "/rk-recovery-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: root) }
        let answered = try Self.keyFolder(root, "answered") { journal, key in
            journal.recordResult(key, .success("ok"))
        }
        let running = try Self.keyFolder(root, "running") { journal, key in journal.markRunning(key) }
        _ = try Self.keyFolder(root, "settled") { journal, key in
            journal.recordResult(key, .success("ok"))
            journal.settle(key)
        }
        let old = try Self.keyFolder(root, "old") { journal, key in journal.recordResult(key, .success("ok")) }
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSinceNow: -2 * ResolveKitHost.recoveryWindow)],
            ofItemAtPath: old + "/journal.jsonl")
        let stray = root + "/sessions/not-a-key-folder"
        try FileManager.default.copyItem(atPath: answered, toPath: stray)

        let found = ResolveKitHost.foldersWithUnsettledCalls(in: root + "/sessions", now: Date())

        let expected = [answered, running].map { String($0.split(separator: "/").last!) }.sorted()
        #expect(found == expected)
    }

    @Test func aStateFolderWithoutKeysHasNothingToScan() {
        let missing = FileManager.default.temporaryDirectory.path + "/rk-recovery-none-" + UUID().uuidString
        #expect(ResolveKitHost.foldersWithUnsettledCalls(in: missing, now: Date()).isEmpty)
    }

    /// The folder of `key` under `root` with a journal of one call, changed by `change` after its admission.
    static func keyFolder(
        _ root: String, _ key: String, _ change: (inout CallJournal, CallJournal.Key) -> Void
    ) throws -> String {
        let folder = ResolveKitHost.folder(for: key, in: root)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        var journal = CallJournal()
        _ = journal.admit(sessionID: "s-\(key)", callID: "c1", turnID: "t1", functionName: "get_time")
        change(&journal, CallJournal.Key(sessionID: "s-\(key)", callID: "c1"))
        try FileCallJournalStore(directory: folder).append(journal.takeChangedEntries(), forgetting: [])
        return folder
    }
}
