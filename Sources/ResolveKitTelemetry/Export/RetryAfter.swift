import Glibc

/// Reads HTTP's `Retry-After`: a number of seconds, or an IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`).
enum RetryAfter {
    /// The wait the header asks for; `nil` when it is absent or unreadable. A date in the past is no wait.
    /// - Parameter nowUnixSeconds: The current time, to turn a date into a wait.
    static func delay(_ value: String?, nowUnixSeconds: Int64) -> Duration? {
        guard let value = value?.trimmingCharacters(in: " \t"), !value.isEmpty else { return nil }
        if value.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) {
            guard let seconds = Int64(value) else { return nil }
            return .seconds(seconds)
        }
        guard let date = imfFixdate(value) else { return nil }
        return .seconds(max(0, date - nowUnixSeconds))
    }

    /// Seconds since the epoch of an IMF-fixdate.
    static func imfFixdate(_ text: String) -> Int64? {
        let parts = text.split(separator: " ")
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        guard parts.count == 6, parts[0].hasSuffix(","), parts[5] == "GMT", let day = Int32(parts[1]),
            let month = months.firstIndex(of: String(parts[2])), let year = Int32(parts[3])
        else { return nil }
        let clock = parts[4].split(separator: ":").compactMap { Int32($0) }
        guard clock.count == 3, (1...31).contains(day), (0...23).contains(clock[0]), (0...59).contains(clock[1]),
            (0...60).contains(clock[2])
        else { return nil }
        var fields = tm()
        fields.tm_year = year - 1900
        fields.tm_mon = Int32(month)
        fields.tm_mday = day
        fields.tm_hour = clock[0]
        fields.tm_min = clock[1]
        fields.tm_sec = clock[2]
        return Int64(timegm(&fields))
    }
}
