import Foundation
import Glibc
import ResolveKitCore
import Testing

@testable import ResolveKitSystemFunctions

/// Calls each function on this machine and checks that the answers are plausible.
@Suite(.timeLimit(.minutes(1)))
struct LiveHostTests {
    @Test func reportsTheHostStatus() async throws {
        let status = try await GetHostStatus().perform(unit: .bytes)
        var names = utsname()
        #expect(uname(&names) == 0)
        #expect(!status.hostname.isEmpty)
        #expect(!status.kernelRelease.isEmpty && status.kernelRelease.first?.isNumber == true)
        #expect(status.uptimeSeconds > 0)
        #expect(status.cpuCount >= 1)
        #expect(status.loadAverage.oneMinute >= 0 && status.loadAverage.totalTasks >= 1)
        #expect(status.memory.total > 0 && status.memory.available <= status.memory.total)
        #expect(status.memory.used + status.memory.available == status.memory.total)
        if FileManager.default.fileExists(atPath: "/etc/os-release") {
            #expect(status.operatingSystem?.isEmpty == false)
        }
    }

    @Test func reportsTheLocalTime() async throws {
        let time = try await GetLocalTime().perform()
        #expect(abs(time.unixTime - Int(Date().timeIntervalSince1970)) < 60)
        #expect(TimeZone(identifier: time.timeZone) != nil)
        #expect(time.iso8601.count == 25)
        #expect(time.iso8601.hasSuffix(time.utcOffset))
    }

    @Test func reportsDiskUsageOfEveryStorageMount() async throws {
        let report = try await GetDiskUsage().perform()
        #expect(!report.fileSystems.isEmpty)
        for usage in report.fileSystems {
            #expect(usage.totalBytes > 0 && usage.usedBytes <= usage.totalBytes)
            #expect(usage.availableBytes <= usage.freeBytes)
            #expect((0...100).contains(usage.usedPercent))
            #expect(!MountTable.pseudoTypes.contains(usage.type) && usage.type != "tmpfs")
        }
    }

    @Test func reportsTheFileSystemHoldingAPath() async throws {
        let tree = try TemporaryTree()
        let report = try await GetDiskUsage().perform(path: tree.path)
        let usage = try #require(report.fileSystems.first)
        #expect(report.fileSystems.count == 1)
        #expect(PathRules.isInside(tree.path, root: usage.mountPoint))
        #expect(usage.totalBytes > 0)
        await expectFunctionError(.invalidArguments, mentioning: "relative") {
            try await GetDiskUsage().perform(path: "tmp")
        }
        await expectFunctionError(.invalidArguments, mentioning: "does not exist") {
            try await GetDiskUsage().perform(path: tree.url("missing/dir"))
        }
    }

    @Test(arguments: ProcessSortKey.allCases)
    func listsTheTopProcesses(sortBy: ProcessSortKey) async throws {
        let top = try await GetTopProcessesFixture.live.perform(limit: 50, sortBy: sortBy)
        #expect(top.sortedBy == sortBy)
        #expect(top.sampleMilliseconds >= 100)
        #expect((1...50).contains(top.processes.count) && top.processCount >= top.processes.count)
        let keys = top.processes.map { sortBy == .cpu ? $0.cpuPercent : Double($0.rssBytes) }
        #expect(keys == keys.sorted(by: >))
        #expect(Set(top.processes.map(\.pid)).count == top.processes.count)
        if sortBy == .memory, let me = top.processes.first(where: { $0.pid == Int(getpid()) }) {
            #expect(me.rssBytes > 0 && me.userID == Int(getuid()))
        }
    }

    @Test func findsThisProcessInTheLiveScan() throws {
        let stats = try ProcessScanner(proc: .live).scan()
        let me = try #require(stats[getpid()])
        #expect(me.name == String(ProcessInfo.processInfo.processName.prefix(15)))
        #expect(me.rssPages > 0 && me.startTicks > 0)
    }
}

/// The live function with a shorter sampling window, so the suite stays quick.
enum GetTopProcessesFixture {
    static let live = ListTopProcesses(proc: .live, sampleInterval: .milliseconds(100))
}
