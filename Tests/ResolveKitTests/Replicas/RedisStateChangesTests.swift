import Foundation
import ResolveKitRedis
import Testing

@testable import ResolveKit

/// How the session's writes map onto the fenced script, and what an owner restores from Redis: pure, no server.
struct RedisStateChangesTests {
    static func entry(_ call: String, _ status: CallJournal.Status, sequence: Int) -> CallJournal.Entry {
        CallJournal.Entry(
            key: CallJournal.Key(sessionID: "s1", callID: ToolCallID(call)), turnID: "t1", functionName: "get_time",
            status: status, sequence: sequence)
    }

    @Test func aCallStaysUnsettledFromItsHandOffUntilItIsSettledSoTheSweepFindsARunningOne() {
        let change = RedisStateStore.change(
            for: .appendJournal(
                [
                    Self.entry("c1", .running, sequence: 0), Self.entry("c2", .answered(.success("ok")), sequence: 1),
                    Self.entry("c3", .settled, sequence: 2),
                ], forgotten: []))
        let marks = change.operations.compactMap { operation -> String? in
            switch operation {
            case .markUndelivered(let field): "U " + field
            case .markDelivered(let field): "u " + field
            default: nil
            }
        }
        #expect(marks == ["U s1/c1", "U s1/c2", "u s1/c3"])
        guard case .putJournalEntry("s1/c1", let line) = change.operations.first,
            let json = try? JSONValue(parsing: line)
        else {
            Issue.record("no journal entry first: \(change.operations)")
            return
        }
        #expect(json["status"] == "running")
        #expect(json["seq"] == 0)
        #expect(json["call_id"] == "c1")
    }

    @Test func aCallTheJournalForgotLosesItsFieldAfterTheNewEntriesArePut() {
        let change = RedisStateStore.change(
            for: .appendJournal(
                [Self.entry("c9", .received, sequence: 9)],
                forgotten: [
                    CallJournal.Key(sessionID: "s1", callID: "c1"), CallJournal.Key(sessionID: "s1", callID: "c2"),
                ]
            ))
        #expect(change.operations.count == 4)
        #expect(
            Array(change.operations.suffix(2)) == [
                .removeJournalEntry(callID: "s1/c1"), .removeJournalEntry(callID: "s1/c2"),
            ])
    }

    @Test func aCompactedJournalClearsTheOldEntriesFirstAndTheSessionRecordIsOneField() {
        let replace = RedisStateStore.change(for: .replaceJournal([Self.entry("c9", .settled, sequence: 9)]))
        #expect(replace.operations.first == .clearJournal)
        #expect(replace.operations.count == 3)
        let record = SessionRecord(sessionID: "s1", cursor: "42")
        let session = RedisStateStore.change(for: .session(record))
        #expect(session.operations == [.setField(name: "session", value: record.json.serialized(options: .sortedKeys))])
        #expect(RedisStateStore.change(for: .session(nil)).operations == [.removeField(name: "session")])
    }

    @Test func theNextOwnerRestoresTheJournalInAdmissionOrderWithTheSessionAndDeviceID() {
        let writes = RedisStateStore.change(
            for: .appendJournal(
                [
                    Self.entry("late", .answered(.success(1)), sequence: 7), Self.entry("early", .running, sequence: 3),
                ], forgotten: []))
        var journal: [String: String] = [:]
        for case .putJournalEntry(let field, let line) in writes.operations { journal[field] = line }
        journal["s1/garbage"] = "not json"
        let stored = RedisStoredState(
            holder: nil, token: 3, leaseRemaining: nil, journal: journal, undelivered: ["s1/late", "s1/early"],
            fields: [
                "session": SessionRecord(sessionID: "s1", cursor: "17").json.serialized(), "device_id": "dev-1",
                "user_key": "alice",
            ])
        let restored = RedisStateStore.restored(from: stored)
        #expect(restored.session == SessionRecord(sessionID: "s1", cursor: "17"))
        #expect(restored.journalRecords == 2)
        let order = restored.journal.entries.values.sorted { $0.sequence < $1.sequence }.map(\.key.callID.rawValue)
        #expect(order == ["early", "late"])
        #expect(restored.journal.status(CallJournal.Key(sessionID: "s1", callID: "early")) == .running)
        #expect(stored.deviceID == "dev-1")
    }

    @Test func anOwnerIsNamedByItsReplicaWhateverItsHolderIDHolds() {
        #expect(KeyOwner(holder: "10.0.0.7:8080#1a2b").replica == "10.0.0.7:8080")
        #expect(KeyOwner(holder: "web#1#ffff").replica == "web#1")
        #expect(KeyOwner(holder: "no-instance").replica == "no-instance")
        #expect(ReplicaSettings(name: "a#b").name == "a_b")
    }

    @Test func aRegistryLackingFunctionsTheBackendListsIsAConflictNamingThem() throws {
        let registry = try ResolveKitRegistry(
            functions: [TestTools.GetTime.self, TestTools.Boom.self], functionPacks: [])
        let conflict = SessionDriver.fleetConflict(
            registry, active: ["get_time", "set_lights", "kb_search", "escalate_to_human"])
        #expect(conflict?.code == .functionSetConflict)
        #expect(conflict?.message.contains("would deactivate 1 that the backend lists") == true)
        #expect(conflict?.message.contains(": set_lights (and would add boom)") == true)
        #expect(SessionDriver.fleetConflict(registry, active: ["get_time"]) == nil)
        #expect(SessionDriver.fleetConflict(registry, active: nil) == nil)
        #expect(BackendFailurePolicy.action(.registration, conflict!) == .block(.functionSetConflict))
    }
}
