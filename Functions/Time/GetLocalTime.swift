import Foundation
public import ResolveKitCore

/// Returns the current local time with its IANA time zone and UTC offset, optionally in another zone.
/// - Parameters:
///   - timeZone: An IANA time zone name such as "America/New_York"; omit it for the host's own zone.
// @ResolveKit(name: "get_local_time", timeout: 10, requiresApproval: false)
public struct GetLocalTime: ResolveKitFunction {
    let detector: TimeZoneDetector
    let now: @Sendable () -> Date

    /// Creates the function for the live host and clock.
    public init() {
        self.init(detector: .live, now: { Date() })
    }

    /// Creates the function with an injected environment and clock.
    init(detector: TimeZoneDetector, now: @escaping @Sendable () -> Date) {
        self.detector = detector
        self.now = now
    }

    /// Reads the clock and describes it in `timeZone`, or in the host's zone when it is `nil`.
    /// - Throws: ``ResolveKitFunctionError/invalidArguments(_:)`` when `timeZone` is not a known IANA name.
    public func perform(timeZone: String? = nil) async throws -> LocalTime {
        let zone: (zone: TimeZone, name: String, source: String)
        if let name = timeZone?.trimmingCharacters(in: .whitespaces) {
            guard !name.isEmpty, let requested = TimeZone(identifier: name) else {
                throw ResolveKitFunctionError.invalidArguments(
                    "Unknown time zone \"\(timeZone ?? "")\". Use an IANA name such as \"Europe/Paris\" or \"UTC\".")
            }
            zone = (requested, name, "argument")
        } else {
            zone = detector.detect()
        }
        return Self.describe(now(), in: zone.zone, named: zone.name, source: zone.source)
    }

    /// The ``LocalTime`` of `date` in `zone`, reported under `name`.
    static func describe(_ date: Date, in zone: TimeZone, named name: String, source: String) -> LocalTime {
        let whole = Date(timeIntervalSince1970: floor(date.timeIntervalSince1970))
        let offset = zone.secondsFromGMT(for: whole)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: whole)
        let sign = offset < 0 ? "-" : "+"
        let utcOffset = sign + pad(abs(offset) / 3600) + ":" + pad(abs(offset) % 3600 / 60)
        let stamp =
            pad(parts.year ?? 0, width: 4) + "-" + pad(parts.month ?? 0) + "-" + pad(parts.day ?? 0) + "T"
            + pad(parts.hour ?? 0) + ":" + pad(parts.minute ?? 0) + ":" + pad(parts.second ?? 0) + utcOffset
        return LocalTime(
            iso8601: stamp, timeZone: name, abbreviation: zone.abbreviation(for: whole),
            utcOffset: utcOffset, utcOffsetSeconds: offset, isDaylightSavingTime: zone.isDaylightSavingTime(for: whole),
            unixTime: Int(whole.timeIntervalSince1970), source: source)
    }

    private static func pad(_ value: Int, width: Int = 2) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
