import ResolveKitCore
import Testing

@testable import ResolveKitSystemFunctions

@Suite(.timeLimit(.minutes(1)))
struct ProcessStatTests {
    static func statLine(pid: Int, comm: String, utime: Int, stime: Int, start: Int, rss: Int) -> String {
        "\(pid) (\(comm)) S 1 \(pid) \(pid) 0 -1 4194560 1000 0 0 0 \(utime) \(stime) 0 0 20 0 1 0 \(start) "
            + "10000000 \(rss) 18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 0 0 0 0 0 0\n"
    }

    @Test(arguments: ["bash", "tmux: server", "my (odd) name", ") (", "a)b", ""])
    func takesTheNameUpToTheLastClosingParenthesis(comm: String) throws {
        let line = Self.statLine(pid: 42, comm: comm, utime: 7, stime: 3, start: 900, rss: 250)
        let stat = try #require(ProcessStat.parse(line))
        #expect(stat == ProcessStat(pid: 42, name: comm, state: "S", cpuTicks: 10, startTicks: 900, rssPages: 250))
    }

    @Test(arguments: [
        "", "42 bash S 1", "42 (bash) S 1 2 3", "x (bash) S" + String(repeating: " 1", count: 30), "1 2 (b) S 1",
    ])
    func rejectsTruncatedOrMalformedStatLines(line: String) {
        #expect(ProcessStat.parse(line) == nil)
    }

    @Test func readsTheRealUserIDFromStatus() {
        #expect(ProcessStat.userID(fromStatus: "Name:\tbash\nUid:\t1000\t1001\t1001\t1001\nGid:\t5\n") == 1000)
        #expect(ProcessStat.userID(fromStatus: "Name:\tbash\n") == nil)
    }

    @Test func joinsTheCommandLineAndCutsItLong() {
        #expect(
            ProcessStat.commandLine(fromCmdline: "/usr/bin/python3\0-m\0http.server\0")
                == "/usr/bin/python3 -m http.server")
        #expect(ProcessStat.commandLine(fromCmdline: "") == nil)
        let long = ProcessStat.commandLine(fromCmdline: String(repeating: "x", count: 300), limit: 10)
        #expect(long == "xxxxxxxxx…")
    }

    @Test func scansAFixtureProcAndSkipsProcessesThatVanished() throws {
        let tree = try TemporaryTree()
        try tree.file("1/stat", Self.statLine(pid: 1, comm: "init", utime: 100, stime: 50, start: 1, rss: 300))
        try tree.file("1/status", "Name:\tinit\nUid:\t0\t0\t0\t0\n")
        try tree.file("1/cmdline", "/sbin/init\0splash\0")
        try tree.file("77/stat", Self.statLine(pid: 77, comm: "kworker/0:1", utime: 5, stime: 5, start: 9, rss: 0))
        try tree.directory("78")  // exited between readdir and open: no stat file
        try tree.file("self/stat", "not a process")
        try tree.file("loadavg", "0 0 0 1/1 1")
        let stats = try ProcessScanner(proc: ProcFileSystem(root: tree.path)).scan()
        #expect(stats.keys.sorted() == [1, 77])
        #expect(stats[77]?.name == "kworker/0:1")
    }

    @Test func ranksByCPUDeltaAndCountsAReusedPidFromZero() throws {
        let tree = try TemporaryTree()
        try tree.file("1/cmdline", "/sbin/init\0")
        try tree.file("1/status", "Uid:\t0\t0\t0\t0\n")
        let scanner = ProcessScanner(proc: ProcFileSystem(root: tree.path))
        func stat(_ pid: Int32, ticks: UInt64, start: UInt64, rss: UInt64) -> ProcessStat {
            ProcessStat(pid: pid, name: "p\(pid)", state: "R", cpuTicks: ticks, startTicks: start, rssPages: rss)
        }
        let before: [Int32: ProcessStat] = [
            1: stat(1, ticks: 1000, start: 1, rss: 10), 2: stat(2, ticks: 500, start: 5, rss: 30),
            3: stat(3, ticks: 0, start: 7, rss: 1),
        ]
        let after: [Int32: ProcessStat] = [
            1: stat(1, ticks: 1050, start: 1, rss: 10), 2: stat(2, ticks: 20, start: 99, rss: 30),
            3: stat(3, ticks: 0, start: 7, rss: 20),
        ]
        let byCPU = scanner.rank(
            before: before, after: after, elapsedSeconds: 0.5, key: .cpu, limit: 2, ticksPerSecond: 100, pageSize: 4096)
        #expect(byCPU.map(\.pid) == [1, 2])
        #expect(byCPU.map(\.cpuPercent) == [100, 40])
        #expect(byCPU[0].command == "/sbin/init")
        #expect(byCPU[0].userID == 0)
        #expect(byCPU[0].cpuTimeSeconds == 10.5)
        #expect(byCPU[1].command == nil)
        let byMemory = scanner.rank(
            before: before, after: after, elapsedSeconds: 0.5, key: .memory, limit: 5, ticksPerSecond: 100,
            pageSize: 4096)
        #expect(byMemory.map(\.pid) == [2, 3, 1])
        #expect(byMemory[0].rssBytes == 30 * 4096)
    }

    @Test func rejectsALimitOutsideOneToFifty() async {
        let function = ListTopProcesses(proc: .live, sampleInterval: .zero)
        for limit in [0, 51, -1] {
            await expectFunctionError(.invalidArguments, mentioning: "between 1 and 50", "\(limit)") {
                try await function.perform(limit: limit)
            }
        }
    }
}
