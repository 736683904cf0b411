import Foundation
import Glibc

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

    /// Replaces the file with `lines` (the journal's current entries): written to a temporary file, synced, and
    /// renamed over the old one, so a crash leaves the old or the new file.
    func rewrite(_ lines: [JSONValue]) throws(Failure) {
        var bytes: [UInt8] = []
        for line in lines {
            bytes += line.serializedBytes(options: .sortedKeys)
            bytes.append(UInt8(ascii: "\n"))
        }
        let temporary = path + ".new"
        let replacement = Glibc.open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard replacement >= 0 else { throw Failure(operation: "rewrite", path: temporary, errno: errno) }
        do {
            try Self.writeAll(replacement, bytes, path: temporary)
        } catch {
            close(replacement)
            throw error
        }
        fsync(replacement)
        close(replacement)
        guard rename(temporary, path) == 0 else { throw Failure(operation: "replace", path: path, errno: errno) }
        close(descriptor)
        descriptor = try Self.open(path)
    }

    private static func open(_ path: String) throws(Failure) -> Int32 {
        let descriptor = Glibc.open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw Failure(operation: "open", path: path, errno: errno) }
        return descriptor
    }

    private static func writeAll(_ descriptor: Int32, _ bytes: [UInt8], path: String) throws(Failure) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                throw Failure(operation: "write", path: path, errno: errno)
            }
            offset += written
        }
    }
}
