import Testing

@testable import ResolveKit

struct SessionTableTests {
    typealias Table = SessionTable<String, String>

    static func table(_ keys: String...) -> Table {
        var table = Table()
        for (index, key) in keys.enumerated() {
            _ = table.checkOut(key, now: .seconds(index), make: { "session-" + key })
            table.checkIn(key, now: .seconds(index))
        }
        return table
    }

    @Test func aKeyGetsOneSessionMadeOnceAndReusedAfter() {
        var table = Table()
        var made = 0
        guard case .ready("s-a", created: true) = table.checkOut("a", now: .zero, make: { made += 1; return "s-a" }),
            case .ready("s-a", created: false) = table.checkOut("a", now: .zero, make: { made += 1; return "other" })
        else { Issue.record("expected one session for a"); return }
        #expect(made == 1)
        #expect(table.openKeys == ["a"])
    }

    @Test func evictsTheLeastRecentlyUsedBeyondTheCap() {
        var table = Self.table("a", "b", "c")
        _ = table.checkOut("a", now: .seconds(10), make: { "unused" })
        table.checkIn("a", now: .seconds(10))
        let evicted = table.evictions(maxOpen: 2)
        #expect(evicted.map(\.key) == ["b"])
        #expect(table.openKeys == ["a", "c"])
    }

    @Test func neverEvictsOrClosesASessionInUse() {
        var table = Self.table("a", "b")
        _ = table.checkOut("a", now: .seconds(5), make: { "unused" })
        _ = table.checkOut("b", now: .seconds(5), make: { "unused" })
        #expect(table.evictions(maxOpen: 1).isEmpty)
        #expect(table.idleSessions(now: .seconds(1000), idleFor: .seconds(1)).isEmpty)
        #expect(table.remove("a") == nil)
        table.checkIn("b", now: .seconds(6))
        #expect(table.evictions(maxOpen: 1).map(\.key) == ["b"])
    }

    @Test func closesOnlyWhatSatIdleForTheWholePeriod() {
        var table = Self.table("a", "b", "c")  // last used at 0 s, 1 s and 2 s
        #expect(table.idleSessions(now: .seconds(61), idleFor: .seconds(60)).map(\.key) == ["a", "b"])
        #expect(table.openKeys == ["c"])
    }

    @Test func aKeyStillClosingMakesItsNextUseWaitAndAClosedHostRefuses() {
        var table = Self.table("a")
        _ = table.remove("a")
        table.closing("a", "closing-a")
        guard case .waitForClose("closing-a") = table.checkOut("a", now: .zero, make: { "new" }) else {
            Issue.record("expected to wait for the close")
            return
        }
        table.closed("a")
        guard case .ready("new", created: true) = table.checkOut("a", now: .zero, make: { "new" }) else {
            Issue.record("expected a new session after the close")
            return
        }
        table.closing("b", "closing-b")
        let all = table.closeAll()
        #expect(all.open.map(\.key) == ["a"])
        #expect(all.closing == ["closing-b"])
        guard case .hostClosed = table.checkOut("c", now: .zero, make: { "c" }) else {
            Issue.record("a closed table opened a session")
            return
        }
    }
}
