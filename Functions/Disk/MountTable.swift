/// One line of `/proc/mounts`.
struct MountEntry: Sendable, Hashable {
    /// The mounted device or source, such as `/dev/sda1` or `tmpfs`.
    var device: String
    /// Where it is mounted, with `\040`-style escapes decoded.
    var mountPoint: String
    /// The file system type, such as `ext4`.
    var type: String
}

/// Reads the mount table and tells real storage from kernel pseudo file systems.
enum MountTable {
    /// Types that describe kernel state rather than storage.
    static let pseudoTypes: Set<String> = [
        "proc", "sysfs", "cgroup", "cgroup2", "devpts", "devtmpfs", "mqueue", "debugfs", "tracefs", "securityfs",
        "pstore", "bpf", "autofs", "configfs", "fusectl", "hugetlbfs", "binfmt_misc", "rpc_pipefs", "nsfs", "efivarfs",
        "selinuxfs", "fuse.gvfsd-fuse", "fuse.portal", "ramfs", "nfsd", "sockfs", "pipefs",
    ]
    /// Memory-backed types, skipped unless the caller asks for them.
    static let memoryTypes: Set<String> = ["tmpfs"]

    /// The entries of `/proc/mounts` text; malformed lines are skipped.
    static func parse(_ text: String) -> [MountEntry] {
        text.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 3 else { return nil }
            return MountEntry(
                device: unescape(fields[0]), mountPoint: unescape(fields[1]), type: unescape(fields[2]))
        }
    }

    /// The entries worth reporting: no pseudo file systems, `tmpfs` only when asked, and one entry per mount
    /// point (the last, which is the one visible when mounts are stacked), in mount point order.
    static func storage(_ entries: [MountEntry], includeTmpfs: Bool) -> [MountEntry] {
        var byMountPoint: [String: MountEntry] = [:]
        for entry in entries {
            if pseudoTypes.contains(entry.type) { continue }
            if !includeTmpfs, memoryTypes.contains(entry.type) { continue }
            byMountPoint[entry.mountPoint] = entry
        }
        return byMountPoint.values.sorted { $0.mountPoint < $1.mountPoint }
    }

    /// The entry whose mount point is the longest component-wise prefix of the absolute, resolved `path`.
    static func containing(_ path: String, in entries: [MountEntry]) -> MountEntry? {
        entries.filter { PathRules.isInside(path, root: $0.mountPoint) }
            .max { $0.mountPoint.utf8.count < $1.mountPoint.utf8.count }
    }

    /// Decodes the kernel's octal escapes (`\040` space, `\011` tab, `\012` newline, `\134` backslash).
    static func unescape(_ field: Substring) -> String {
        var bytes: [UInt8] = []
        let source = Array(field.utf8)
        var index = 0
        while index < source.count {
            let digits = index + 3 < source.count ? source[(index + 1)...(index + 3)] : []
            if source[index] == UInt8(ascii: "\\"), digits.count == 3,
                digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "7")).contains($0) }),
                let value = UInt8(String(decoding: digits, as: UTF8.self), radix: 8)
            {
                bytes.append(value)
                index += 4
            } else {
                bytes.append(source[index])
                index += 1
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
