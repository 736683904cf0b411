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

    /// The host's zone, its IANA name as the host spells it (Foundation reports `UTC` as `GMT`), and where the name
    /// was found.
    func detect() -> (zone: TimeZone, name: String, source: String) {
        if let value = environment()["TZ"], let found = Self.zone(fromTZ: value) {
            return (found.zone, found.name, "TZ")
        }
        if let target = PathRules.symbolicLinkTarget(localtimePath), let name = Self.zoneName(fromZoneInfoPath: target),
            let zone = TimeZone(identifier: name)
        {
            return (zone, name, localtimePath)
        }
        return (TimeZone.current, TimeZone.current.identifier, "system")
    }

    /// The zone a `TZ` value names: `Europe/Paris`, `:Europe/Paris` or `:/usr/share/zoneinfo/Europe/Paris`.
    /// POSIX rule strings such as `CET-1CEST` have no IANA name and give `nil`.
    static func zone(fromTZ value: String) -> (zone: TimeZone, name: String)? {
        var name = value.hasPrefix(":") ? String(value.dropFirst()) : value
        if name.hasPrefix("/") {
            guard let zoneName = zoneName(fromZoneInfoPath: name) else { return nil }
            name = zoneName
        }
        guard !name.isEmpty, let zone = TimeZone(identifier: name) else { return nil }
        return (zone, name)
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
