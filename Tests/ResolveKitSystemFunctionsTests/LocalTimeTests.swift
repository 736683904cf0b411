import Foundation
import ResolveKitCore
import Testing

@testable import ResolveKitSystemFunctions

@Suite(.timeLimit(.minutes(1)))
struct LocalTimeTests {
    // 2026-07-01T10:20:30.75Z
    static let instant = Date(timeIntervalSince1970: 1_782_901_230.75)

    @Test(arguments: [
        ("UTC", "2026-07-01T10:20:30+00:00", 0, false),
        ("Europe/Paris", "2026-07-01T12:20:30+02:00", 7200, true),
        ("America/New_York", "2026-07-01T06:20:30-04:00", -14400, true),
        ("Asia/Kolkata", "2026-07-01T15:50:30+05:30", 19800, false),
        ("America/St_Johns", "2026-07-01T07:50:30-02:30", -9000, true),
    ])
    func writesISO8601WithTheZonesOffset(zone: String, iso: String, offset: Int, dst: Bool) throws {
        let time = GetLocalTime.describe(
            Self.instant, in: try #require(TimeZone(identifier: zone)), named: zone, source: "argument")
        #expect(time.iso8601 == iso)
        #expect(time.utcOffsetSeconds == offset)
        #expect(time.isDaylightSavingTime == dst)
        #expect(time.timeZone == zone)
        #expect(time.unixTime == 1_782_901_230)
    }

    @Test func usesTheRequestedZone() async throws {
        let function = GetLocalTime(detector: .live, now: { Self.instant })
        let time = try await function.perform(timeZone: "Australia/Sydney")
        #expect(time.iso8601 == "2026-07-01T20:20:30+10:00")
        #expect(time.utcOffset == "+10:00")
        #expect(time.source == "argument")
        #expect(try await function.perform(timeZone: "UTC").timeZone == "UTC")
    }

    @Test(arguments: ["Mars/Olympus_Mons", "", "  ", "../../etc/passwd"])
    func refusesUnknownZones(zone: String) async {
        let function = GetLocalTime(detector: .live, now: { Self.instant })
        await expectFunctionError(.invalidArguments, mentioning: "IANA") { try await function.perform(timeZone: zone) }
    }

    @Test(arguments: [
        ("Europe/Berlin", "Europe/Berlin" as String?), (":Asia/Tokyo", "Asia/Tokyo"),
        (":/usr/share/zoneinfo/America/Chicago", "America/Chicago"), ("CET-1CEST", nil), ("", nil),
    ])
    func readsTheTZVariable(value: String, zone: String?) {
        #expect(TimeZoneDetector.zone(fromTZ: value)?.name == zone)
    }

    @Test(arguments: [
        ("/usr/share/zoneinfo/Europe/Paris", "Europe/Paris" as String?),
        ("../usr/share/zoneinfo/posix/Asia/Seoul", "Asia/Seoul"),
        ("/usr/share/zoneinfo/", nil), ("/etc/timezone", nil),
    ])
    func namesTheZoneOfALocaltimeLink(target: String, name: String?) {
        #expect(TimeZoneDetector.zoneName(fromZoneInfoPath: target) == name)
    }

    @Test func prefersTZThenTheLocaltimeLinkThenTheSystem() throws {
        let tree = try TemporaryTree()
        try tree.symlink("localtime", to: "/usr/share/zoneinfo/Pacific/Auckland")
        let linked = TimeZoneDetector(environment: { [:] }, localtimePath: tree.url("localtime"))
        #expect(linked.detect().name == "Pacific/Auckland")
        #expect(linked.detect().source == tree.url("localtime"))
        let fromTZ = TimeZoneDetector(environment: { ["TZ": "Africa/Nairobi"] }, localtimePath: tree.url("localtime"))
        #expect(fromTZ.detect().name == "Africa/Nairobi")
        #expect(fromTZ.detect().source == "TZ")
        let neither = TimeZoneDetector(environment: { ["TZ": "nonsense"] }, localtimePath: tree.url("missing"))
        #expect(neither.detect().source == "system")
        #expect(neither.detect().name == TimeZone.current.identifier)
    }
}
