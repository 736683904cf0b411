import Glibc

/// Replaces a file's contents at once: the bytes go to a temporary file beside it, which is renamed over it, so a
/// reader sees the old file or the new one, never part of one. Failures keep the system's reason (`errno`), which a
/// command-line tool can print as it is.
package enum AtomicFileWrite {
    /// A write that failed: where, and the `errno` of the call that failed.
    package struct Failure: Error, Sendable, Equatable {
        /// The file or folder the failing call was about.
        package var path: String
        /// The system's error number.
        package var errno: Int32

        /// The system's words for ``errno``, e.g. `Is a directory`.
        package var reason: String { String(cString: strerror(errno)) }
    }

    /// Writes `bytes` to `path` with `mode` (whatever the umask), creating missing folders (mode 0755) first.
    /// - Throws: ``Failure``, e.g. `EISDIR` when `path` is a folder, `ENOTDIR` when a folder on the way is a file.
    package static func write(_ bytes: [UInt8], to path: String, mode: UInt32 = 0o644) throws(Failure) {
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[..<$0]) } ?? "."
        try createFolders(folder.isEmpty ? "/" : folder)
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        let temporary = (slash == nil ? "" : folder + "/") + ".\(name).\(getpid()).tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode_t(mode))
        guard descriptor >= 0 else { throw Failure(path: path, errno: errno) }
        var failure = FileDescriptorWrite.all(bytes, to: descriptor) ?? 0
        if failure == 0, fchmod(descriptor, mode_t(mode)) != 0 { failure = errno }
        if close(descriptor) != 0, failure == 0 { failure = errno }
        if failure == 0, rename(temporary, path) != 0 { failure = errno }
        guard failure == 0 else {
            unlink(temporary)
            throw Failure(path: path, errno: failure)
        }
    }

    /// Creates `folder` and the folders above it that are missing, each with `mode` (whatever the umask leaves).
    package static func createFolders(_ folder: String, mode: UInt32 = 0o755) throws(Failure) {
        var path = folder.hasPrefix("/") ? "" : "."
        for component in folder.split(separator: "/") {
            path += "/" + component
            if mkdir(path, mode_t(mode)) != 0, errno != EEXIST { throw Failure(path: path, errno: errno) }
        }
    }
}
