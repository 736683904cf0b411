import Foundation
import Testing

@testable import ResolveKitTelemetry

struct ProcessMetricsTests {
    @Test func statIsReadFromTheLastParenthesisOn() {
        let line =
            "4242 (my (odd) name) S 1 4242 4242 0 -1 4194560 500 0 0 0 "
            + "123 45 0 0 20 0 7 0 98765 104857600 2560 18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 1 0 0 0 0 0\n"
        let stat = ProcessStat(parsing: Array(line.utf8))
        #expect(
            stat
                == ProcessStat(
                    userTicks: 123, systemTicks: 45, startTicks: 98765, virtualBytes: 104_857_600, residentPages: 2560))
        #expect(ProcessStat(parsing: Array("garbage".utf8)) == nil)
        #expect(
            ProcessStat.bootTime(parsing: Array("cpu 1 2 3\nbtime 1700000000\nprocesses 9\n".utf8)) == 1_700_000_000)
    }

    @Test func thisProcesssMetricsArePlausible() throws {
        let families = Dictionary(uniqueKeysWithValues: ProcessMetrics().collect().map { ($0.descriptor.name, $0) })
        #expect(Set(families.keys) == Set(ProcessMetrics().declaredFamilies.map(\.name)))
        func value(_ name: String) -> Double? {
            switch families[name]?.series.first?.value {
            case .counter(let value), .gauge(let value): value
            default: nil
            }
        }
        #expect((value("process_resident_memory_bytes") ?? 0) > 1_000_000)
        #expect((value("process_open_fds") ?? 0) >= 3)
        #expect((value("process_max_fds") ?? 0) >= (value("process_open_fds") ?? .infinity))
        let start = try #require(value("process_start_time_seconds"))
        let now = Date().timeIntervalSince1970
        #expect(start <= now && start > now - 86_400)
        #expect(families["process_cpu_seconds"]?.kind == .counter)
    }

    @Test func aMissingProcFolderLeavesTheFamiliesOut() {
        let names = ProcessMetrics(procRoot: "/nonexistent").collect().map(\.descriptor.name)
        #expect(names == ["process_max_fds"])
    }
}
