/// "Did you mean …?": the candidate a mistyped word is most likely meant to be.
enum Suggestion {
    /// `; did you mean '--approve'?`, or an empty string when no candidate is close.
    static func phrase(for word: String, among candidates: [String]) -> String {
        closest(to: word, among: candidates).map { "; did you mean '\($0)'?" } ?? ""
    }

    /// The candidate `word` is a unique prefix of, else the one within a small edit distance (one edit for short
    /// words, two from five letters on); `nil` when none or several are equally close.
    static func closest(to word: String, among candidates: [String]) -> String? {
        let bare = word.drop { $0 == "-" }
        guard !bare.isEmpty else { return nil }
        let prefixed = candidates.filter { $0.hasPrefix(word) && $0 != word }
        if prefixed.count == 1 { return prefixed[0] }
        let limit = bare.count >= 5 ? 2 : 1
        var best: (candidate: String, distance: Int)?
        var tied = false
        for candidate in candidates {
            let distance = editDistance(Array(bare), Array(candidate.drop { $0 == "-" }))
            guard distance <= limit else { continue }
            if let current = best, distance == current.distance {
                tied = true
            } else if best == nil || distance < best!.distance {
                best = (candidate, distance)
                tied = false
            }
        }
        return tied ? nil : best?.candidate
    }

    /// The optimal-string-alignment distance: insertions, deletions, substitutions and swaps of neighbours.
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var before = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], before[j - 2] + 1)
                }
            }
            (before, previous, current) = (previous, current, before)
        }
        return previous[b.count]
    }

    /// `'a', 'b' or 'c'`.
    static func list(_ items: [String], conjunction: String) -> String {
        guard items.count > 1 else { return items.first ?? "" }
        return items.dropLast().joined(separator: ", ") + " \(conjunction) " + items.last!
    }
}
