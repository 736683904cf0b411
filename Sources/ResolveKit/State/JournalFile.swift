import Foundation
import Glibc

/// The call journal's file: opened once with `O_APPEND`, one JSON line per change; rewritten atomically (write a
/// new file, rename it over the old one) when it has grown too long.
final class JournalFile {
    let path: String
    private var descriptor: Int32
    private(set) var lineCount: Int

    deinit { close(descriptor) }

    init(directory: String) throws {
        try FileManager.default.createDirectory(
            atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        path = directory + "/journal.jsonl"
        descriptor = try Self.open(path)
        lineCount = StateFileReader.lineCount(atPath: path)
    }

    func append(_ bytes: [UInt8], lines: Int) throws {
        try Self.writeAll(descriptor, bytes, path: path)
        lineCount += lines
    }

    /// Replaces the file with `lines` (the journal's current entries).
    func rewrite(_ lines: [JSONValue]) throws {
        var bytes: [UInt8] = []
        for line in lines {
            bytes += line.serializedBytes(options: .sortedKeys)
            bytes.append(UInt8(ascii: "\n"))
        }
        try Data(bytes).write(to: URL(fileURLWithPath: path), options: .atomic)
        close(descriptor)
        descriptor = try Self.open(path)
        lineCount = lines.count
    }

    private static func open(_ path: String) throws -> Int32 {
        let descriptor = Glibc.open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path, "errno": errno])
        }
        return descriptor
    }

    private static func writeAll(_ descriptor: Int32, _ bytes: [UInt8], path: String) throws {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path, "errno": errno])
            }
            offset += written
        }
    }
}
