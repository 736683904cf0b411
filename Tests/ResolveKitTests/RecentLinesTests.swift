import Testing

@testable import ResolveKit

struct RecentLinesTests {
    @Test func linesBelowTheCapacityAreKeptInOrder() {
        var recent = RecentLines(capacity: 3)
        recent.append("a")
        recent.append("b")
        #expect(recent.lines == ["a", "b"])
    }

    @Test(arguments: [3, 4, 5, 7, 9, 1_000])
    func pastTheCapacityTheNewestAreKeptOldestFirst(appended: Int) {
        var recent = RecentLines(capacity: 3)
        for index in 0..<appended { recent.append("line \(index)") }
        #expect(recent.lines == (appended - 3..<appended).map { "line \($0)" })
    }

    @Test func aRuntimeKeepsTheNewestFiveHundredLogLines() {
        var snapshot = RuntimeSnapshot()
        for index in 0..<1_234 { snapshot.log("line \(index)") }
        #expect(snapshot.executionLog.lines.count == RuntimeSnapshot.maxLogLines)
        #expect(snapshot.executionLog.lines.first == "line 734")
        #expect(snapshot.executionLog.lines.last == "line 1233")
        #expect(snapshot.changes.contains(.executionLog))
    }
}
