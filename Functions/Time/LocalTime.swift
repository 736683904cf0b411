/// The current time as seen in one time zone.
public struct LocalTime: Codable, Sendable, Hashable {
    /// The time as ISO 8601 with its offset, to the second: `2026-11-22T04:05:06+01:00`.
    public var iso8601: String
    /// The IANA name of the zone, such as `Europe/Paris`.
    public var timeZone: String
    /// The zone's abbreviation at this instant, such as `CET`, when the system knows one.
    public var abbreviation: String?
    /// The offset from UTC as `+HH:MM` or `-HH:MM`.
    public var utcOffset: String
    /// The offset from UTC in seconds (east is positive).
    public var utcOffsetSeconds: Int
    /// Whether daylight saving time is in effect in the zone at this instant.
    public var isDaylightSavingTime: Bool
    /// Seconds since 1970-01-01T00:00:00Z.
    public var unixTime: Int
    /// Where the zone name came from: `argument`, `TZ`, `/etc/localtime` or `system`.
    public var source: String
}
