import Glibc
import ResolveKitCore

/// Exclusive ownership of a state folder: an advisory `flock` on `<folder>/lock`, held for a runtime's life.
///
/// Exactly-once across processes holds only because two runtimes never share a journal. The kernel releases the
/// lock when the descriptor closes, so a crashed process never leaves the folder locked; the holder's pid is
/// written into the file only to name it in the error a second runtime gets.
final class StateFolderLock: Sendable {
    /// The lock file's path.
    let path: String
    private let descriptor: Int32

    /// Takes the lock, creating the folder (mode 0700) and the lock file if needed.
    /// - Throws: ``StateFolderLockError`` when another runtime holds it, or the folder cannot be used.
    init(folder: String) throws(StateFolderLockError) {
        try Self.createFolder(folder)
        path = folder + "/lock"
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw StateFolderLockError(path: path, errno: errno, holder: nil) }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let code = errno
            let holder = Self.readHolder(descriptor)
            close(descriptor)
            throw StateFolderLockError(path: path, errno: code, holder: code == EWOULDBLOCK ? holder : nil)
        }
        self.descriptor = descriptor
        Self.writeHolder(descriptor, pid: getpid())
    }

    deinit {
        // Closing releases the lock. The pid is left in place: it names nobody once the lock is free.
        close(descriptor)
    }

    private static func createFolder(_ folder: String) throws(StateFolderLockError) {
        do throws(AtomicFileWrite.Failure) {
            try AtomicFileWrite.createFolders(folder, mode: 0o700)
        } catch {
            throw StateFolderLockError(path: error.path, errno: error.errno, holder: nil)
        }
    }

    private static func readHolder(_ descriptor: Int32) -> Int32? {
        var buffer = [UInt8](repeating: 0, count: 32)
        let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return nil }
        return Int32(String(decoding: buffer[..<count], as: UTF8.self).filter(\.isNumber))
    }

    private static func writeHolder(_ descriptor: Int32, pid: Int32) {
        let bytes = Array("\(pid)\n".utf8)
        _ = ftruncate(descriptor, 0)
        _ = bytes.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
    }
}

/// A state folder that could not be locked.
package struct StateFolderLockError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The lock file, or the folder that could not be created.
    public var path: String
    /// The `errno` of the failing call (`EWOULDBLOCK` when another runtime holds the lock).
    public var errno: Int32
    /// The pid of the process holding the lock, when known.
    public var holder: Int32?

    /// Whether another runtime holds the lock.
    public var isHeldByAnother: Bool { errno == EWOULDBLOCK }

    /// `… is in use by process 4242` or the system's reason.
    public var description: String {
        if isHeldByAnother {
            let who = holder.map { $0 == getpid() ? "another runtime in this process (\($0))" : "process \($0)" }
                ?? "another process"
            return "The state folder lock \(path) is held by \(who); each state folder belongs to one runtime at a time"
        }
        return "Cannot use the state folder (\(path)): \(String(cString: strerror(errno)))"
    }
}
