import Glibc

/// Reads the kernel's `/proc` files, or the same layout under another root for tests.
struct ProcFileSystem: Sendable {
    /// The directory that plays `/proc`.
    var root: String

    /// The real `/proc`.
    static let live = ProcFileSystem(root: "/proc")

    /// Creates a reader rooted at `root`.
    init(root: String) {
        self.root = root
    }

    /// The text of `root/relativePath`, read to its end (proc files report a size of zero, so `stat` is no use).
    func read(_ relativePath: String) throws(SystemCallError) -> String {
        try HostFile.readText(atPath: root + "/" + relativePath)
    }

    /// The numeric entries of the root: the process ids present when it was listed.
    func processIDs() throws(SystemCallError) -> [Int32] {
        guard let directory = opendir(root) else { throw .current("opendir", root) }
        defer { closedir(directory) }
        var pids: [Int32] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if let pid = Int32(name), pid > 0 { pids.append(pid) }
        }
        return pids
    }
}

/// Whole-file reads through `open`/`read`, bounded in size.
enum HostFile {
    /// Reads at most `limit` bytes of the file at `path` and decodes them as UTF-8, replacing invalid bytes.
    static func readText(atPath path: String, limit: Int = 4 << 20) throws(SystemCallError) -> String {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { throw .current("open", path) }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while bytes.count < limit {
            let count = chunk.withUnsafeMutableBytes {
                read(descriptor, $0.baseAddress, min($0.count, limit - bytes.count))
            }
            if count < 0 {
                if errno == EINTR { continue }
                throw .current("read", path)
            }
            if count == 0 { break }
            bytes.append(contentsOf: chunk[0..<count])
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
