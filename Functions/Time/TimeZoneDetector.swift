import Foundation

/// Finds the host's IANA time zone name the way the C library does: `TZ` first, then `/etc/localtime`.
struct TimeZoneDetector: Sendable {
    /// The process environment.
    var environment: @Sendable () -> [String: String]
    /// The path of the zone file the C library falls back to.
    var localtimePath: String

    /// The live host.
    static let live = TimeZoneDetector(
        environment: { ProcessInfo.processInfo.environment }, localtimePath: "/etc/localtime")

    /// The host's zone and where its name was found.
    func detect() -> (zone: TimeZone, source: String) {
        if let value = environment()["TZ"], let zone = Self.zone(fromTZ: value) {
            return (zone, "TZ")
        }
        if let target = PathRules.symbolicLinkTarget(localtimePath), let name = Self.zoneName(fromZoneInfoPath: target),
            let zone = TimeZone(identifier: name)
        {
            return (zone, localtimePath)
        }
        return (TimeZone.current, "system")
    }

    /// The zone a `TZ` value names: `Europe/Paris`, `:Europe/Paris` or `:/usr/share/zoneinfo/Europe/Paris`.
    /// POSIX rule strings such as `CET-1CEST` have no IANA name and give `nil`.
    static func zone(fromTZ value: String) -> TimeZone? {
        var name = value.hasPrefix(":") ? String(value.dropFirst()) : value
        if name.hasPrefix("/") {
            guard let zoneName = zoneName(fromZoneInfoPath: name) else { return nil }
            name = zoneName
        }
        guard !name.isEmpty else { return nil }
        return TimeZone(identifier: name)
    }

    /// `Europe/Paris` from `/usr/share/zoneinfo/Europe/Paris` or `../usr/share/zoneinfo/posix/Europe/Paris`.
    static func zoneName(fromZoneInfoPath path: String) -> String? {
        guard let range = path.range(of: "zoneinfo/", options: .backwards) else { return nil }
        var name = String(path[range.upperBound...])
        for prefix in ["posix/", "right/"] where name.hasPrefix(prefix) {
            name.removeFirst(prefix.count)
        }
        return name.isEmpty ? nil : name
    }
}
