/// A unified-style line diff, for `rk-codegen --check` and golden-file tests.
public enum LineDiff {
    private enum Edit: Equatable {
        case same(String)
        case removed(String)
        case added(String)

        var isSame: Bool { if case .same = self { true } else { false } }
        var inOld: Bool { if case .added = self { false } else { true } }
        var inNew: Bool { if case .removed = self { false } else { true } }
    }

    /// The differences between `old` and `new` as a unified diff with `context` lines around each change, or
    /// `nil` when the texts are equal.
    public static func unified(
        old: String, new: String, oldName: String = "old", newName: String = "new", context: Int = 3
    ) -> String? {
        guard old != new else { return nil }
        let oldLines = old.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let newLines = new.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let edits = self.edits(oldLines, newLines)
        var output = ["--- \(oldName)", "+++ \(newName)"]
        var ranges: [Range<Int>] = []
        for change in edits.indices where !edits[change].isSame {
            let range = max(0, change - context)..<min(edits.count, change + context + 1)
            if let last = ranges.last, range.lowerBound <= last.upperBound {
                ranges[ranges.count - 1] = last.lowerBound..<range.upperBound
            } else {
                ranges.append(range)
            }
        }
        for range in ranges {
            let before = edits[..<range.lowerBound]
            let hunk = edits[range]
            let oldStart = before.filter(\.inOld).count + 1
            let newStart = before.filter(\.inNew).count + 1
            output.append("@@ -\(oldStart),\(hunk.filter(\.inOld).count) +\(newStart),\(hunk.filter(\.inNew).count) @@")
            for edit in hunk {
                switch edit {
                case .same(let line): output.append(" " + line)
                case .removed(let line): output.append("-" + line)
                case .added(let line): output.append("+" + line)
                }
            }
        }
        return output.joined(separator: "\n") + "\n"
    }

    /// A shortest edit script by longest common subsequence, after trimming the common prefix and suffix.
    private static func edits(_ old: [String], _ new: [String]) -> [Edit] {
        var prefix = 0
        while prefix < old.count, prefix < new.count, old[prefix] == new[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < old.count - prefix, suffix < new.count - prefix,
            old[old.count - 1 - suffix] == new[new.count - 1 - suffix]
        {
            suffix += 1
        }
        let a = Array(old[prefix..<(old.count - suffix)])
        let b = Array(new[prefix..<(new.count - suffix)])
        var lengths = [[Int32]](repeating: [Int32](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in stride(from: a.count - 1, through: 0, by: -1) {
            for j in stride(from: b.count - 1, through: 0, by: -1) {
                lengths[i][j] = a[i] == b[j] ? lengths[i + 1][j + 1] + 1 : max(lengths[i + 1][j], lengths[i][j + 1])
            }
        }
        var edits = old[..<prefix].map(Edit.same)
        var i = 0
        var j = 0
        while i < a.count || j < b.count {
            if i < a.count, j < b.count, a[i] == b[j] {
                edits.append(.same(a[i]))
                i += 1
                j += 1
            } else if i < a.count, j == b.count || lengths[i + 1][j] >= lengths[i][j + 1] {
                edits.append(.removed(a[i]))
                i += 1
            } else {
                edits.append(.added(b[j]))
                j += 1
            }
        }
        return edits + old[(old.count - suffix)...].map(Edit.same)
    }
}
