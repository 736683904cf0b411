/// Space on the host's file systems.
public struct DiskUsageReport: Codable, Sendable, Hashable {
    /// One entry per mounted file system (or the one holding the requested path), by mount point.
    public var fileSystems: [FileSystemUsage]
}

/// The space of one mounted file system, from `statvfs`.
public struct FileSystemUsage: Codable, Sendable, Hashable {
    /// Where it is mounted.
    public var mountPoint: String
    /// The device or source, such as `/dev/sda1`.
    public var device: String
    /// The file system type, such as `ext4`.
    public var type: String
    /// Its size in bytes.
    public var totalBytes: UInt64
    /// Free bytes, including those reserved for root.
    public var freeBytes: UInt64
    /// Bytes an unprivileged process may still write.
    public var availableBytes: UInt64
    /// `total - free`.
    public var usedBytes: UInt64
    /// Used space as a percentage of what users can have (`used / (used + available)`), as `df` reports it.
    public var usedPercent: Double
}
