import Glibc
import ResolveKitCore

/// Path arithmetic done component by component, never by string prefix.
enum PathRules {
    /// The non-empty components of `path`: `/var//log/` gives `["var", "log"]`.
    static func components(_ path: String) -> [Substring] {
        PathConfinementRules.components(path)
    }

    /// Whether `path` is `root` or lies below it, comparing whole components, so `/var/log2` is not inside
    /// `/var/log`. Both paths must already be absolute and resolved.
    static func isInside(_ path: String, root: String) -> Bool {
        PathConfinementRules.isInside(path, root: root)
    }

    /// `realpath(3)`: the absolute path with every symbolic link, `.` and `..` resolved.
    static func realPath(_ path: String) throws(SystemCallError) -> String {
        guard let resolved = PathConfinementRules.realPath(path) else { throw .current("realpath", path) }
        return resolved
    }

    /// The path the kernel reports for an open descriptor (`/proc/self/fd/N`), which names the object actually
    /// opened even if the path it was opened by has changed since.
    static func openedPath(of descriptor: Int32) throws(SystemCallError) -> String {
        let link = "/proc/self/fd/\(descriptor)"
        guard let target = symbolicLinkTarget(link) else { throw .current("readlink", link) }
        return target
    }

    /// `readlink(2)`: the text of the symbolic link at `path`, or `nil` when it is not one or cannot be read.
    static func symbolicLinkTarget(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
