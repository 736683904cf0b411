/// The entries of one directory.
public struct DirectoryListing: Codable, Sendable, Hashable {
    /// The directory's resolved path (every symbolic link followed).
    public var path: String
    /// The entries, sorted by name, at most the configured maximum.
    public var entries: [DirectoryEntry]
    /// How many entries the directory has (`.` and `..` not counted), before the cut.
    public var totalEntries: Int
    /// Whether entries were left out because of the maximum.
    public var truncated: Bool
}

/// One entry of a directory, described without following it if it is a symbolic link.
public struct DirectoryEntry: Codable, Sendable, Hashable {
    /// The entry's name.
    public var name: String
    /// What kind of object it is.
    public var type: EntryType
    /// Its size in bytes (for a symbolic link, the length of its target text).
    public var sizeBytes: Int
    /// When its content last changed, ISO 8601 in UTC: `2026-11-22T03:04:05Z`.
    public var modified: String
}

/// The kind of a directory entry.
public enum EntryType: String, Codable, Sendable, CaseIterable {
    /// A regular file.
    case file
    /// A directory.
    case directory
    /// A symbolic link (not followed).
    case symlink
    /// A named pipe.
    case fifo
    /// A Unix-domain socket.
    case socket
    /// A character device.
    case characterDevice
    /// A block device.
    case blockDevice
    /// Something else.
    case unknown
}
