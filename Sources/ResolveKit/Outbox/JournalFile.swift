import Foundation
import Glibc
import ResolveKitCore

/// The call journal's file: opened once with `O_APPEND`, one JSON line per change; rewritten atomically (write a
/// new file, rename it over the old one) when it has grown too long. Only the runtime holding the state folder's
/// lock writes it, so the rename never pulls the file from under another writer.
final class JournalFile {
    /// A write that failed, with the path and the system's reason.
    struct Failure: Error, Sendable, CustomStringConvertible {
        var operation: String
        var path: String
        var errno: Int32

        var description: String {
            "Cannot \(operation) the call journal \(path): \(String(cString: strerror(errno)))"
        }
    }

    let path: String
    private var descriptor: Int32

    deinit { close(descriptor) }

    init(directory: String) throws(Failure) {
        if mkdir(directory, 0o700) != 0, errno != EEXIST {
            throw Failure(operation: "create the folder of", path: directory, errno: errno)
        }
        path = directory + "/journal.jsonl"
        descriptor = try Self.open(path)
    }

    func append(_ bytes: [UInt8]) throws(Failure) {
        try Self.writeAll(descriptor, bytes, path: path)
    }

    /// A replacement for the file being written beside it (`journal.jsonl.new`): the journal's entries, synced to
    /// disk, then the lines appended to the old file meanwhile; ``JournalFile/take(_:)`` renames it over the old
    /// one, so a crash leaves the old or the new file, each with every line the old one had. The lines added last
    /// are not synced again, as appends never are.
    final class Replacement {
        let path: String
        private var descriptor: Int32

        deinit { if descriptor >= 0 { close(descriptor) } }

        init(directory: String, lines: [JSONValue]) throws(Failure) {
            path = directory + "/journal.jsonl.new"
            descriptor = Glibc.open(path, O_WRONLY | O_APPEND | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
            guard descriptor >= 0 else { throw Failure(operation: "rewrite", path: path, errno: errno) }
            var bytes: [UInt8] = []
            for line in lines {
                bytes += line.serializedBytes(options: .sortedKeys)
                bytes.append(UInt8(ascii: "\n"))
            }
            try JournalFile.writeAll(descriptor, bytes, path: path)
            fsync(descriptor)
        }

        func append(_ bytes: [UInt8]) throws(Failure) {
            try JournalFile.writeAll(descriptor, bytes, path: path)
        }

        /// Removes the unfinished file.
        func discard() {
            if descriptor >= 0 { close(descriptor) }
            descriptor = -1
            unlink(path)
        }

        /// Hands its open descriptor over.
        fileprivate func takeDescriptor() -> Int32 {
            defer { descriptor = -1 }
            return descriptor
        }
    }

    /// Puts `replacement` in the file's place; appends go to it from now on, through the descriptor it was written
    /// with (opened for appending), so nothing can fail once the rename is done.
    func take(_ replacement: Replacement?) throws(Failure) {
        guard let replacement else { return }
        guard rename(replacement.path, path) == 0 else { throw Failure(operation: "replace", path: path, errno: errno) }
        close(descriptor)
        descriptor = replacement.takeDescriptor()
    }

    private static func open(_ path: String) throws(Failure) -> Int32 {
        let descriptor = Glibc.open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw Failure(operation: "open", path: path, errno: errno) }
        return descriptor
    }

    fileprivate static func writeAll(_ descriptor: Int32, _ bytes: [UInt8], path: String) throws(Failure) {
        if let failure = FileDescriptorWrite.all(bytes, to: descriptor) {
            throw Failure(operation: "write", path: path, errno: failure)
        }
    }
}
