/// A snapshot of the host: identity, uptime, load, CPUs and memory.
public struct HostStatus: Codable, Sendable, Hashable {
    /// The node name from `uname`.
    public var hostname: String
    /// The kernel release from `uname`, such as `6.1.0-18-amd64`.
    public var kernelRelease: String
    /// The machine architecture from `uname`, such as `x86_64`.
    public var architecture: String
    /// `PRETTY_NAME` from `/etc/os-release`, when the file exists.
    public var operatingSystem: String?
    /// Seconds since boot, from `/proc/uptime`.
    public var uptimeSeconds: Double
    /// The uptime for people: `3d 4h 5m`.
    public var uptime: String
    /// The run-queue load averages from `/proc/loadavg`.
    public var loadAverage: LoadAverage
    /// Online logical CPUs (`sysconf(_SC_NPROCESSORS_ONLN)`).
    public var cpuCount: Int
    /// Memory figures from `/proc/meminfo`.
    public var memory: MemoryStatus
}

/// The kernel's exponentially damped run-queue lengths.
public struct LoadAverage: Codable, Sendable, Hashable {
    /// Over the last minute.
    public var oneMinute: Double
    /// Over the last five minutes.
    public var fiveMinutes: Double
    /// Over the last fifteen minutes.
    public var fifteenMinutes: Double
    /// Tasks runnable right now.
    public var runnableTasks: Int
    /// Tasks (threads) that exist right now.
    public var totalTasks: Int
}

/// Memory totals in the unit the caller asked for.
public struct MemoryStatus: Codable, Sendable, Hashable {
    /// The unit of every figure below.
    public var unit: MemoryUnit
    /// Physical memory the kernel manages (`MemTotal`).
    public var total: Double
    /// Memory available to new work without swapping (`MemAvailable`).
    public var available: Double
    /// `total - available`.
    public var used: Double
    /// `used / total` as a percentage, two decimals.
    public var usedPercent: Double
    /// Swap space (`SwapTotal`).
    public var swapTotal: Double
    /// Unused swap space (`SwapFree`).
    public var swapFree: Double
}

/// The unit memory figures are given in.
public enum MemoryUnit: String, Codable, Sendable, CaseIterable {
    /// Bytes.
    case bytes
    /// Mebibytes (2^20 bytes), two decimals.
    case mib
    /// Gibibytes (2^30 bytes), two decimals.
    case gib

    /// Bytes per unit.
    var divisor: Double {
        switch self {
        case .bytes: 1
        case .mib: 1_048_576
        case .gib: 1_073_741_824
        }
    }

    /// `bytes` in this unit, rounded to two decimals.
    func convert(_ bytes: UInt64) -> Double {
        (Double(bytes) / divisor * 100).rounded() / 100
    }
}
