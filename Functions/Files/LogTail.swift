/// The end of a text file.
public struct LogTail: Codable, Sendable, Hashable {
    /// The file's resolved path (every symbolic link followed).
    public var path: String
    /// The last lines, oldest first, without their line terminators.
    public var lines: [String]
    /// The file's size in bytes when it was read.
    public var fileSizeBytes: Int
    /// How many bytes were read from the end of the file.
    public var bytesRead: Int
    /// Whether the file has content before the first returned line.
    public var truncated: Bool
    /// Whether fewer lines than asked for came back because the byte limit was reached first.
    public var reachedByteLimit: Bool
}
