package import Foundation

/// Reads and writes the ISO-8601 date-times of the wire: `2026-07-27T10:00:00.123456+00:00` and `…Z`.
///
/// Parsing accepts 0–9 fractional digits and either `Z` or a `±hh:mm` offset (WireProtocol §3); formatting
/// writes UTC with milliseconds and `Z`. Pure arithmetic, no locale or calendar.
package enum ISO8601Timestamp {
    /// Parses a date-time; `nil` when the text is not of the accepted form.
    package static func parse(_ text: String) -> Date? {
        var scanner = DigitScanner(Array(text.utf8))
        guard let year = scanner.number(4), scanner.expect("-"), let month = scanner.number(2), scanner.expect("-"),
            let day = scanner.number(2), scanner.expect("T") || scanner.expect("t") || scanner.expect(" "),
            let hour = scanner.number(2), scanner.expect(":"), let minute = scanner.number(2), scanner.expect(":"),
            let second = scanner.number(2),
            (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61
        else { return nil }
        var fraction = 0.0
        if scanner.expect(".") {
            var scale = 0.1
            var digits = 0
            while let digit = scanner.number(1) {
                fraction += Double(digit) * scale
                scale /= 10
                digits += 1
            }
            guard (1...9).contains(digits) else { return nil }
        }
        var offsetSeconds = 0
        if scanner.expect("Z") || scanner.expect("z") {
            offsetSeconds = 0
        } else {
            let sign: Int
            if scanner.expect("+") { sign = 1 } else if scanner.expect("-") { sign = -1 } else { return nil }
            guard let offsetHours = scanner.number(2), scanner.expect(":"), let offsetMinutes = scanner.number(2)
            else { return nil }
            offsetSeconds = sign * (offsetHours * 3600 + offsetMinutes * 60)
        }
        guard scanner.isAtEnd else { return nil }
        let days = daysFromCivil(year: year, month: month, day: day)
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offsetSeconds
        return Date(timeIntervalSince1970: Double(seconds) + fraction)
    }

    /// Formats a date as UTC with milliseconds, e.g. `2026-11-22T01:52:08.665Z`.
    package static func format(_ date: Date) -> String {
        let milliseconds = Int((date.timeIntervalSince1970 * 1000).rounded(.down))
        let totalSeconds = milliseconds.floorDivided(by: 1000)
        let days = totalSeconds.floorDivided(by: 86_400)
        let secondOfDay = totalSeconds - days * 86_400
        let (year, month, day) = civilFromDays(days)
        func pad(_ value: Int, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(secondOfDay / 3600, 2)):"
            + "\(pad(secondOfDay % 3600 / 60, 2)):\(pad(secondOfDay % 60, 2)).\(pad(milliseconds - totalSeconds * 1000, 3))Z"
    }

    // Howard Hinnant's days_from_civil / civil_from_days.
    package static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    package static func civilFromDays(_ days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}

private struct DigitScanner {
    let bytes: [UInt8]
    var index = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var isAtEnd: Bool { index == bytes.count }

    mutating func number(_ width: Int) -> Int? {
        guard index + width <= bytes.count else { return nil }
        var value = 0
        for byte in bytes[index..<index + width] {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        index += width
        return value
    }

    mutating func expect(_ character: Unicode.Scalar) -> Bool {
        guard index < bytes.count, bytes[index] == UInt8(character.value) else { return false }
        index += 1
        return true
    }
}

extension Int {
    fileprivate func floorDivided(by divisor: Int) -> Int {
        let quotient = self / divisor
        return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }
}
