import Foundation
import Testing

@testable import ResolveKitCodegen

struct LineDiffTests {
    @Test func equalTextsHaveNoDiff() {
        #expect(LineDiff.unified(old: "a\nb\n", new: "a\nb\n") == nil)
    }

    @Test func aChangedLineIsShownWithContextAndLineNumbers() {
        let old = (1...10).map { "line \($0)" }.joined(separator: "\n")
        let new = old.replacingOccurrences(of: "line 5", with: "line five")
        #expect(
            LineDiff.unified(old: old, new: new, oldName: "a.swift", newName: "b.swift") == """
                --- a.swift
                +++ b.swift
                @@ -2,7 +2,7 @@
                 line 2
                 line 3
                 line 4
                -line 5
                +line five
                 line 6
                 line 7
                 line 8

                """)
    }

    @Test func distantChangesBecomeSeparateHunks() throws {
        let lines = (1...20).map { "\($0)" }
        let old = lines.joined(separator: "\n")
        let new = lines.map { $0 == "2" ? "two" : $0 == "19" ? "nineteen\n19b" : $0 }.joined(separator: "\n")
        let diff = try #require(LineDiff.unified(old: old, new: new, context: 1))
        #expect(diff.components(separatedBy: "@@ ").count - 1 == 2)
        #expect(diff.contains("-19\n+nineteen\n+19b\n"))
    }
}
