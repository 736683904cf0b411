/// The fields of `/proc/[pid]/stat` this pack uses.
struct ProcessStat: Sendable, Hashable {
    /// Field 1.
    var pid: Int32
    /// Field 2 without its parentheses; it may itself contain spaces and parentheses.
    var name: String
    /// Field 3.
    var state: String
    /// Fields 14 + 15, `utime + stime`, in clock ticks.
    var cpuTicks: UInt64
    /// Field 22, when the process started, in clock ticks after boot (tells a reused pid apart).
    var startTicks: UInt64
    /// Field 24, resident pages.
    var rssPages: UInt64

    /// Parses one stat line. The name is everything between the first `(` and the *last* `)`, so
    /// `123 (my (odd) name) S 1 …` gives `my (odd) name`; returns `nil` for anything shorter than field 24.
    static func parse(_ line: String) -> ProcessStat? {
        guard let open = line.firstIndex(of: "("), let close = line.lastIndex(of: ")"), open < close else {
            return nil
        }
        let pidWords = line[..<open].split(separator: " ")
        guard pidWords.count == 1, let pid = Int32(pidWords[0]) else { return nil }
        let rest = line[line.index(after: close)...].split(separator: " ")
        guard rest.count >= 22, let user = UInt64(rest[11]), let system = UInt64(rest[12]),
            let start = UInt64(rest[19])
        else { return nil }
        // rss is signed in the kernel's format; a negative value never happens for a live process.
        let rss = UInt64(rest[21]) ?? 0
        return ProcessStat(
            pid: pid, name: String(line[line.index(after: open)..<close]), state: String(rest[0]),
            cpuTicks: user + system, startTicks: start, rssPages: rss)
    }

    /// The real user id from `/proc/[pid]/status` text (`Uid:\t1000\t1000\t1000\t1000`).
    static func userID(fromStatus text: String) -> Int? {
        for line in text.split(separator: "\n") where line.hasPrefix("Uid:") {
            return line.dropFirst(4).split(whereSeparator: \.isWhitespace).first.flatMap { Int($0) }
        }
        return nil
    }

    /// `/proc/[pid]/cmdline` (NUL-separated arguments) as one line, cut at `limit` characters; `nil` when empty.
    static func commandLine(fromCmdline text: String, limit: Int = 256) -> String? {
        let arguments = text.split(separator: "\0", omittingEmptySubsequences: true)
        guard !arguments.isEmpty else { return nil }
        let joined = arguments.joined(separator: " ")
        return joined.count > limit ? String(joined.prefix(limit - 1)) + "…" : joined
    }
}
