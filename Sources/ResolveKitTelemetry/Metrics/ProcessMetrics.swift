import Glibc

/// The usual `process_*` metrics of a Prometheus client, read from `/proc` at every scrape: CPU seconds, resident
/// and virtual memory, open and allowed file descriptors, and the start time.
///
/// ```swift
/// try registry.register(ProcessMetrics())
/// ```
public struct ProcessMetrics: MetricsCollector {
    private let procRoot: String

    /// Creates the collector.
    /// - Parameter procRoot: Where `/proc` is; tests point it at a folder of sample files.
    public init(procRoot: String = "/proc") {
        self.procRoot = procRoot
    }

    /// `process_cpu_seconds` (a counter), and gauges `process_resident_memory_bytes`,
    /// `process_virtual_memory_bytes`, `process_open_fds`, `process_max_fds`, `process_start_time_seconds`.
    public var declaredFamilies: [(name: String, kind: MetricKind)] {
        [
            ("process_cpu_seconds", .counter), ("process_resident_memory_bytes", .gauge),
            ("process_virtual_memory_bytes", .gauge), ("process_open_fds", .gauge), ("process_max_fds", .gauge),
            ("process_start_time_seconds", .gauge),
        ]
    }

    /// The current values; a file that cannot be read leaves its families out.
    public func collect() -> [MetricFamilySnapshot] {
        var families: [MetricFamilySnapshot] = []
        func add(_ name: String, _ kind: MetricKind, _ unit: String, _ help: String, _ value: Double) {
            let series = MetricFamilySnapshot.Series(
                labels: [], value: kind == .counter ? .counter(value) : .gauge(value))
            families.append(
                MetricFamilySnapshot(
                    descriptor: MetricDescriptor(name, help: help, unit: unit), kind: kind, series: [series]))
        }
        let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
        let page = Double(sysconf(Int32(_SC_PAGESIZE)))
        if let bytes = SystemFiles.read(procRoot + "/self/stat"), let stat = ProcessStat(parsing: bytes) {
            add(
                "process_cpu_seconds", .counter, "s", "Total user and system CPU time spent in seconds.",
                Double(stat.userTicks + stat.systemTicks) / ticks)
            add(
                "process_resident_memory_bytes", .gauge, "By", "Resident memory size in bytes.",
                Double(stat.residentPages) * page)
            add(
                "process_virtual_memory_bytes", .gauge, "By", "Virtual memory size in bytes.",
                Double(stat.virtualBytes))
            if let boot = SystemFiles.read(procRoot + "/stat").flatMap(ProcessStat.bootTime(parsing:)) {
                add(
                    "process_start_time_seconds", .gauge, "s",
                    "Start time of the process since unix epoch in seconds.",
                    Double(boot) + Double(stat.startTicks) / ticks)
            }
        }
        if let open = SystemFiles.entryCount(procRoot + "/self/fd") {
            add("process_open_fds", .gauge, "", "Number of open file descriptors.", Double(open))
        }
        var limit = rlimit()
        if getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 {
            add("process_max_fds", .gauge, "", "Maximum number of open file descriptors.", Double(limit.rlim_cur))
        }
        return families
    }
}

/// The fields of `/proc/<pid>/stat` the process metrics need.
struct ProcessStat: Equatable {
    var userTicks: UInt64
    var systemTicks: UInt64
    var startTicks: UInt64
    var virtualBytes: UInt64
    var residentPages: UInt64

    /// Reads the file's text. The command name (field 2) is in parentheses and may hold spaces and parentheses
    /// itself, so fields are counted from the last `)`.
    init?(parsing bytes: [UInt8]) {
        guard let close = bytes.lastIndex(of: UInt8(ascii: ")")) else { return nil }
        let fields = bytes[(close + 1)...].split(separator: UInt8(ascii: " ")).map {
            String(decoding: $0, as: UTF8.self).trimmingCharacters(in: "\n")
        }
        // fields[0] is field 3 (state): field N is fields[N - 3].
        func field(_ number: Int) -> UInt64? { number - 3 < fields.count ? UInt64(fields[number - 3]) : nil }
        guard let user = field(14), let system = field(15), let start = field(22), let virtual = field(23),
            let resident = field(24)
        else { return nil }
        userTicks = user
        systemTicks = system
        startTicks = start
        virtualBytes = virtual
        residentPages = resident
    }

    init(userTicks: UInt64, systemTicks: UInt64, startTicks: UInt64, virtualBytes: UInt64, residentPages: UInt64) {
        self.userTicks = userTicks
        self.systemTicks = systemTicks
        self.startTicks = startTicks
        self.virtualBytes = virtualBytes
        self.residentPages = residentPages
    }

    /// The `btime` line of `/proc/stat`: when the system booted, in seconds since the epoch.
    static func bootTime(parsing bytes: [UInt8]) -> UInt64? {
        for line in bytes.split(separator: UInt8(ascii: "\n")) where line.starts(with: "btime ".utf8) {
            return UInt64(String(decoding: line.dropFirst(6), as: UTF8.self).trimmingCharacters(in: " "))
        }
        return nil
    }
}
