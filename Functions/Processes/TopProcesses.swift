/// The busiest processes on the host.
public struct TopProcesses: Codable, Sendable, Hashable {
    /// What the list is ordered by.
    public var sortedBy: ProcessSortKey
    /// What `cpuPercent` measures, in words.
    public var cpuPercentMeaning: String
    /// The length of the sampling window `cpuPercent` was measured over, in milliseconds.
    public var sampleMilliseconds: Int
    /// How many processes were seen in the scan.
    public var processCount: Int
    /// The top processes, busiest first.
    public var processes: [ProcessEntry]
}

/// One process.
public struct ProcessEntry: Codable, Sendable, Hashable {
    /// Its process id.
    public var pid: Int
    /// The kernel's name for it (`comm`, at most 15 characters).
    public var name: String
    /// Its command line with arguments joined by spaces (cut at 256 characters); `nil` for kernel threads.
    public var command: String?
    /// Its scheduler state: `R` running, `S` sleeping, `D` disk wait, `Z` zombie, `T` stopped, `I` idle.
    public var state: String
    /// Its real user id, from `/proc/[pid]/status`.
    public var userID: Int?
    /// Its resident set size in bytes.
    public var rssBytes: UInt64
    /// CPU use over the sampling window as a percentage of one CPU (so up to 100 × CPU count).
    public var cpuPercent: Double
    /// CPU time (user + system) used since the process started, in seconds.
    public var cpuTimeSeconds: Double
}

/// What to rank processes by.
public enum ProcessSortKey: String, Codable, Sendable, CaseIterable {
    /// CPU use over the sampling window.
    case cpu
    /// Resident memory.
    case memory
}
