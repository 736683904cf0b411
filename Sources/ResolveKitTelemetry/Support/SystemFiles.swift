import Glibc
import ResolveKitCore

/// Small reads of `/proc` without Foundation.
enum SystemFiles {
    /// The whole file (up to `limit` bytes), or `nil` when it cannot be opened or read.
    static func read(_ path: String, limit: Int = 64 * 1024) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var result: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while result.count < limit {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { return nil }
            if count == 0 { break }
            result.append(contentsOf: buffer[..<count])
        }
        return result
    }

    /// How many entries a directory has besides `.` and `..`, or `nil` when it cannot be read.
    static func entryCount(_ path: String) -> Int? {
        guard let directory = opendir(path) else { return nil }
        defer { closedir(directory) }
        var count = 0
        while let entry = readdir(directory) {
            if !DirectoryEntryName.isDotOrDotDot(entry) { count += 1 }
        }
        return count
    }
}
