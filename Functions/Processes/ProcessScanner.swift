/// Reads every process under a `/proc` root.
struct ProcessScanner: Sendable {
    /// The `/proc` to read.
    var proc: ProcFileSystem

    /// The stat line of each process present; processes that exit mid-scan (their files vanish) are skipped.
    func scan() throws(SystemCallError) -> [Int32: ProcessStat] {
        var stats: [Int32: ProcessStat] = [:]
        for pid in try proc.processIDs() {
            guard let text = try? proc.read("\(pid)/stat"), let stat = ProcessStat.parse(text) else { continue }
            stats[pid] = stat
        }
        return stats
    }

    /// Ranks `after` by `key` and describes the first `limit`; CPU use is the tick delta since `before` (matched by
    /// pid and start time, so a reused pid counts from zero) over `elapsedSeconds`.
    func rank(
        before: [Int32: ProcessStat], after: [Int32: ProcessStat], elapsedSeconds: Double, key: ProcessSortKey,
        limit: Int, ticksPerSecond: Double, pageSize: UInt64
    ) -> [ProcessEntry] {
        let measured = after.values.map { stat -> (stat: ProcessStat, percent: Double) in
            let previous = before[stat.pid].flatMap { $0.startTicks == stat.startTicks ? $0.cpuTicks : nil } ?? 0
            let delta = Double(stat.cpuTicks - min(previous, stat.cpuTicks))
            let percent = elapsedSeconds > 0 ? delta / ticksPerSecond / elapsedSeconds * 100 : 0
            return (stat, (percent * 10).rounded() / 10)
        }
        let ordered = measured.sorted { left, right in
            let (l, r) =
                key == .cpu
                ? (left.percent, right.percent) : (Double(left.stat.rssPages), Double(right.stat.rssPages))
            return l != r ? l > r : left.stat.pid < right.stat.pid
        }
        return ordered.prefix(limit).map { item in
            let pid = item.stat.pid
            return ProcessEntry(
                pid: Int(pid), name: item.stat.name,
                command: (try? proc.read("\(pid)/cmdline")).flatMap { ProcessStat.commandLine(fromCmdline: $0) },
                state: item.stat.state,
                userID: (try? proc.read("\(pid)/status")).flatMap(ProcessStat.userID(fromStatus:)),
                rssBytes: item.stat.rssPages * pageSize, cpuPercent: item.percent,
                cpuTimeSeconds: (Double(item.stat.cpuTicks) / ticksPerSecond * 100).rounded() / 100)
        }
    }
}
