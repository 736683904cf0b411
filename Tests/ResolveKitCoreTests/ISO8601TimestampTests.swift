import Foundation
import ResolveKitCore
import Testing

struct ISO8601TimestampTests {
    @Test(arguments: [
        ("2026-11-22T01:52:08.665132+00:00", 1_795_312_328.665132),
        ("2026-11-22T01:52:08.679576Z", 1_795_312_328.679576),
        ("2026-11-22T01:52:08Z", 1_795_312_328.0),
        ("2026-11-22T03:52:08+02:00", 1_795_312_328.0),
        ("1970-01-01T00:00:00Z", 0),
        ("2000-02-29T12:00:00.5-01:30", 951_831_000.5),
    ])
    func parsesTheWireForms(text: String, seconds: Double) throws {
        let date = try #require(ISO8601Timestamp.parse(text))
        #expect(abs(date.timeIntervalSince1970 - seconds) < 0.000_001)
    }

    @Test(arguments: ["2026-11-22", "2026-13-01T00:00:00Z", "2026-11-22T01:52:08", "2026-11-22T01:52:08.Z", "x"])
    func rejectsOtherForms(text: String) {
        #expect(ISO8601Timestamp.parse(text) == nil)
    }

    @Test func formatsUTCWithMilliseconds() {
        #expect(ISO8601Timestamp.format(Date(timeIntervalSince1970: 1_795_312_328.665)) == "2026-11-22T01:52:08.665Z")
        #expect(ISO8601Timestamp.format(Date(timeIntervalSince1970: -1)) == "1969-12-31T23:59:59.000Z")
    }
}
