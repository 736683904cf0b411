import Foundation
import ResolveKitCore

/// Date-times as the real backend writes them: Python `isoformat()` (`+00:00`) and pydantic (`Z`), both with
/// microseconds that are left out entirely when zero.
enum PythonTime {
    /// `datetime.isoformat()` of an aware UTC datetime, e.g. `2026-11-22T01:52:09.875427+00:00`.
    static func isoformat(_ date: Date) -> String { base(date) + "+00:00" }

    /// Pydantic's serialisation of a UTC datetime, e.g. `2026-11-22T01:52:08.679576Z`.
    static func pydantic(_ date: Date) -> String { base(date) + "Z" }

    /// Whole seconds since the Unix epoch, as JWT claims carry them.
    static func unixSeconds(_ date: Date) -> Int { Int(date.timeIntervalSince1970.rounded(.down)) }

    /// Whole milliseconds since the Unix epoch, as Redis stream ids carry them.
    static func unixMilliseconds(_ date: Date) -> Int { Int((date.timeIntervalSince1970 * 1000).rounded(.down)) }

    private static func base(_ date: Date) -> String {
        let micros = Int((date.timeIntervalSince1970 * 1_000_000).rounded())
        var seconds = micros / 1_000_000
        var fraction = micros % 1_000_000
        if fraction < 0 {
            fraction += 1_000_000
            seconds -= 1
        }
        var days = seconds / 86_400
        var secondOfDay = seconds % 86_400
        if secondOfDay < 0 {
            secondOfDay += 86_400
            days -= 1
        }
        let (year, month, day) = civil(fromDays: days)
        var text = "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(secondOfDay / 3600, 2)):"
        text += "\(pad(secondOfDay % 3600 / 60, 2)):\(pad(secondOfDay % 60, 2))"
        if fraction != 0 { text += "." + pad(fraction, 6) }
        return text
    }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }

    private static func civil(fromDays days: Int) -> (Int, Int, Int) {
        ISO8601Timestamp.civilFromDays(days)
    }
}
