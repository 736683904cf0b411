import Foundation
import Glibc
import ResolveKit
import Synchronization

/// Writes one `level=… label=… msg="…" key=value` line per record to stderr, with every secret it knows of
/// replaced by `[redacted]`, whoever logged it (the runtime promises never to log one; this is the second lock).
final class StructuredLog: Sendable {
    private let secrets: [String]
    private let write: @Sendable (String) -> Void
    private let lock = Mutex(())

    /// Creates a log writing to `write` (stderr by default) that never lets `secrets` through.
    init(secrets: [String], write: (@Sendable (String) -> Void)? = nil) {
        self.secrets = secrets.filter { !$0.isEmpty }
        self.write = write ?? { line in StructuredLog.writeToStandardError(line) }
    }

    /// A logger for the runtime and for the service itself, both ending in this log.
    func logger(label: String, minimumLevel: ResolveKitLogger.Level) -> ResolveKitLogger {
        ResolveKitLogger(label: label, minimumLevel: minimumLevel) { [self] record in self.emit(record) }
    }

    /// Formats and writes one record; lines from different threads never interleave.
    func emit(_ record: ResolveKitLogger.Record) {
        let line = redact(Self.format(record)) + "\n"
        lock.withLock { _ in write(line) }
    }

    private func redact(_ line: String) -> String {
        secrets.reduce(line) { $0.replacingOccurrences(of: $1, with: "[redacted]") }
    }

    /// `level=info label=resolvekit msg="connection active" key=value`, metadata sorted by key.
    static func format(_ record: ResolveKitLogger.Record) -> String {
        var fields = [
            "level=" + record.level.description, "label=" + quoted(record.label),
            "msg=" + quoted(record.message, always: true),
        ]
        for key in record.metadata.keys.sorted() {
            fields.append(sanitizedKey(key) + "=" + quoted(record.metadata[key] ?? ""))
        }
        return fields.joined(separator: " ")
    }

    /// The value as is when it is a plain token, else in double quotes with `"`, `\` and control characters escaped.
    static func quoted(_ value: String, always: Bool = false) -> String {
        let plain =
            !value.isEmpty
            && value.unicodeScalars.allSatisfy {
                $0.value > 0x20 && $0 != "\"" && $0 != "=" && $0 != "\\" && $0.value != 0x7F
            }
        if plain && !always { return value }
        var escaped = ""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": escaped += "\\\""
            case "\\": escaped += "\\\\"
            case "\n": escaped += "\\n"
            case "\r": escaped += "\\r"
            case "\t": escaped += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                escaped += "\\u{" + String(scalar.value, radix: 16) + "}"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return "\"" + escaped + "\""
    }

    private static func sanitizedKey(_ key: String) -> String {
        let cleaned = String(key.map { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." || $0 == "-" ? $0 : "_" })
        return cleaned.isEmpty ? "_" : cleaned
    }

    private static func writeToStandardError(_ line: String) {
        var bytes = Array(line.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Glibc.write(STDERR_FILENO, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return }
            bytes = bytes.dropFirst(written)
        }
    }
}
