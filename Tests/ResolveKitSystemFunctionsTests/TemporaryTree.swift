import Foundation
import Glibc

/// A fresh directory under the system temporary directory, removed with everything in it when released.
final class TemporaryTree {
    /// The directory's resolved absolute path.
    let path: String

    init() throws {
        var template = Array((NSTemporaryDirectory() + "/rk-functions-XXXXXX").utf8CString)
        guard let created = mkdtemp(&template) else { throw POSIXError(.EIO) }
        path = try FileManager.default.destinationOfSymbolicLinkIfAny(String(cString: created))
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// `path/relative`.
    func url(_ relative: String) -> String { path + "/" + relative }

    /// Creates the directory `relative` (and its parents).
    func directory(_ relative: String) throws {
        try FileManager.default.createDirectory(atPath: url(relative), withIntermediateDirectories: true)
    }

    /// Writes `text` to the file `relative`, creating its parent directories.
    func file(_ relative: String, _ text: String) throws {
        let target = url(relative)
        try FileManager.default.createDirectory(
            atPath: (target as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: target))
    }

    /// Creates the symbolic link `relative` whose text is `target`.
    func symlink(_ relative: String, to target: String) throws {
        try FileManager.default.createSymbolicLink(atPath: url(relative), withDestinationPath: target)
    }
}

extension FileManager {
    /// `path` with every symbolic link resolved, so it compares equal to what `realpath` returns.
    fileprivate func destinationOfSymbolicLinkIfAny(_ path: String) throws -> String {
        guard let resolved = realpath(path, nil) else { throw POSIXError(.ENOENT) }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
