import Foundation
import Glibc
import ResolveKit
import Synchronization

/// Writes one `time=… level=… label=… msg="…" key=value` line per record to stderr, with every secret it knows
/// of replaced by `[redacted]`, whoever logged it (the runtime promises never to log one; this is the second lock).
final class StructuredLog: Sendable {
    private let secrets: [String]
    private let stampsTime: Bool
    private let write: @Sendable (String) -> Void
    private let lock = Mutex(())

    /// Creates a log writing to `write` (stderr by default) that never lets `secrets` through; each line starts
    /// with its time when `stampsTime` (by default, unless stderr is the systemd journal, which stamps lines itself).
    init(
        secrets: [String], stampsTime: Bool = !standardErrorIsTheJournal, write: (@Sendable (String) -> Void)? = nil
    ) {
        self.secrets = secrets.filter { !$0.isEmpty }
        self.stampsTime = stampsTime
        self.write = write ?? { line in StructuredLog.writeToStandardError(line) }
    }

    /// Whether stderr is a stream of the systemd journal: `JOURNAL_STREAM` names its device and inode.
    static var standardErrorIsTheJournal: Bool {
        guard let stream = ProcessInfo.processInfo.environment["JOURNAL_STREAM"] else { return false }
        var status = stat()
        return fstat(STDERR_FILENO, &status) == 0 && stream == "\(status.st_dev):\(status.st_ino)"
    }

    /// A logger for the runtime and for the service itself, both ending in this log.
    func logger(label: String, minimumLevel: ResolveKitLogger.Level) -> ResolveKitLogger {
        ResolveKitLogger(label: label, minimumLevel: minimumLevel) { [self] record in self.emit(record) }
    }

    /// Formats and writes one record; lines from different threads never interleave.
    func emit(_ record: ResolveKitLogger.Record) {
        let text = redact(Self.format(record))
        let line = (stampsTime ? "time=" + Self.timestamp(Self.now()) + " " : "") + text + "\n"
        lock.withLock { _ in write(line) }
    }

    /// The wall clock now.
    static func now() -> timespec {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return now
    }

    /// `2026-11-30T06:31:08.123Z`: RFC 3339 in UTC, to the millisecond.
    static func timestamp(_ time: timespec) -> String {
        var seconds = time.tv_sec
        var parts = tm()
        gmtime_r(&seconds, &parts)
        return String(
            format: "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1,
            Int(parts.tm_mday), Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec), time.tv_nsec / 1_000_000)
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
