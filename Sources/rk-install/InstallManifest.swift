import ResolveKitCore

/// What the last `rk-install` put under a prefix: each file with its size and CRC-32, so `--uninstall` (and the next
/// install) removes exactly those files, and keeps one that was changed since.
///
/// Stored as text, one file per line after a header: `<crc32 in hex> <size> <absolute path>`.
struct InstallManifest: Equatable {
    /// One installed file, as it was written.
    struct Entry: Equatable {
        var path: String
        var size: Int
        var checksum: UInt32

        /// The entry for `bytes` written at `path`.
        init(path: String, bytes: [UInt8]) {
            self.init(path: path, size: bytes.count, checksum: CRC32.checksum(bytes))
        }

        init(path: String, size: Int, checksum: UInt32) {
            self.path = path
            self.size = size
            self.checksum = checksum
        }

        /// Whether `bytes` are what was installed.
        func matches(_ bytes: [UInt8]) -> Bool {
            bytes.count == size && CRC32.checksum(bytes) == checksum
        }
    }

    /// A manifest that cannot be read: its line (1-based) and what is wrong with it.
    struct Malformed: Error, Equatable {
        var line: Int
        var reason: String
    }

    static let header = "# rk-install manifest 1"

    var entries: [Entry]

    init(entries: [Entry]) {
        self.entries = entries
    }

    /// Reads a manifest's text.
    init(parsing text: String) throws(Malformed) {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.first.map(String.init) == Self.header else {
            throw Malformed(line: 1, reason: "expected \"\(Self.header)\"")
        }
        var entries: [Entry] = []
        for (index, line) in lines.enumerated().dropFirst() where !line.isEmpty {
            let fields = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
            guard fields.count == 3, let checksum = UInt32(fields[0], radix: 16), let size = Int(fields[1]), size >= 0,
                fields[2].hasPrefix("/")
            else {
                throw Malformed(line: index + 1, reason: "expected \"<crc32> <size> <absolute path>\"")
            }
            entries.append(Entry(path: String(fields[2]), size: size, checksum: checksum))
        }
        self.entries = entries
    }

    /// The manifest as it is stored.
    var text: String {
        let lines = entries.map { entry in
            let checksum = String(entry.checksum, radix: 16)
            return String(repeating: "0", count: 8 - checksum.count) + checksum + " \(entry.size) \(entry.path)"
        }
        return ([Self.header] + lines).joined(separator: "\n") + "\n"
    }
}
