import Foundation
import Testing

@testable import ResolveKitSystemFunctions

struct ResultEncodingTests {
    func keys<Value: Encodable>(of value: Value) throws -> Set<String> {
        let object = try JSONSerialization.jsonObject(with: JSONEncoder().encode(value))
        return Set((object as? [String: Any])?.keys.map { $0 } ?? [])
    }

    @Test func encodesResultsWithTheirDocumentedKeys() throws {
        let time = LocalTime(
            iso8601: "2026-01-01T00:00:00+00:00", timeZone: "UTC", abbreviation: "UTC", utcOffset: "+00:00",
            utcOffsetSeconds: 0, isDaylightSavingTime: false, unixTime: 0, source: "TZ")
        #expect(try keys(of: time).isSuperset(of: ["iso8601", "timeZone", "utcOffset", "unixTime", "source"]))
        let usage = FileSystemUsage(
            mountPoint: "/", device: "/dev/vda", type: "ext4", totalBytes: 10, freeBytes: 4, availableBytes: 3,
            usedBytes: 6, usedPercent: 66.67)
        #expect(try keys(of: DiskUsageReport(fileSystems: [usage])) == ["fileSystems"])
        #expect(try keys(of: usage).count == 8)
        let decoded = try JSONDecoder().decode(FileSystemUsage.self, from: JSONEncoder().encode(usage))
        #expect(decoded == usage)
        #expect(try JSONDecoder().decode(MemoryUnit.self, from: Data("\"gib\"".utf8)) == .gib)
        #expect(try JSONDecoder().decode(ProcessSortKey.self, from: Data("\"memory\"".utf8)) == .memory)
    }
}
