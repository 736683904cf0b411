import Testing

@testable import ResolveKitSystemFunctions

struct ProcParsersTests {
    static let meminfo = """
        MemTotal:       16318164 kB
        MemFree:         1204320 kB
        MemAvailable:    8159082 kB
        Buffers:          402116 kB
        Cached:          6201448 kB
        SwapTotal:       2097148 kB
        SwapFree:        2097148 kB
        HugePages_Total:       0

        """

    /// meminfo's "kB". Typed on purpose: with an untyped `16_318_164 * 1024` compared to an optional, the compiler
    /// routes `#expect` through an `AnyHashable` conversion that reads past the value (swiftlang/swift#92469;
    /// AddressSanitizer reports a stack-buffer-overflow, and a `nil` would trap instead of failing the test).
    static let kibibyte: UInt64 = 1024

    @Test func readsMeminfoFieldsAsBytes() {
        let fields = ProcParsers.memInfo(Self.meminfo)
        #expect(fields["MemTotal"] == 16_318_164 * Self.kibibyte)
        #expect(fields["SwapFree"] == 2_097_148 * Self.kibibyte)
        #expect(fields["HugePages_Total"] == 0)
    }

    @Test(arguments: [
        (MemoryUnit.bytes, 16_709_799_936.0, 8_354_899_968.0),
        (.mib, 15935.71, 7967.85),
        (.gib, 15.56, 7.78),
    ])
    func convertsMemoryToTheRequestedUnit(unit: MemoryUnit, total: Double, used: Double) throws {
        let status = try #require(ProcParsers.memoryStatus(ProcParsers.memInfo(Self.meminfo), unit: unit))
        #expect(status.total == total)
        #expect(status.used == used)
        #expect(status.usedPercent == 50)
        #expect(status.unit == unit)
    }

    @Test func fallsBackToFreePlusCachesWithoutMemAvailable() throws {
        let text = "MemTotal: 1000 kB\nMemFree: 100 kB\nBuffers: 50 kB\nCached: 250 kB\n"
        let status = try #require(ProcParsers.memoryStatus(ProcParsers.memInfo(text), unit: .bytes))
        #expect(status.available == 400 * 1024)
        #expect(status.usedPercent == 60)
    }

    @Test func refusesMeminfoWithoutATotal() {
        #expect(ProcParsers.memoryStatus(ProcParsers.memInfo("MemFree: 5 kB\n"), unit: .mib) == nil)
    }

    @Test func readsLoadAverages() throws {
        let load = try #require(ProcParsers.loadAverage("0.52 0.58 0.59 2/1024 12345\n"))
        #expect(
            load
                == LoadAverage(
                    oneMinute: 0.52, fiveMinutes: 0.58, fifteenMinutes: 0.59, runnableTasks: 2, totalTasks: 1024))
    }

    @Test(arguments: ["", "0.52 0.58", "0.52 0.58 0.59 2-1024 1", "a b c 1/2 3"])
    func rejectsMalformedLoadAverages(text: String) {
        #expect(ProcParsers.loadAverage(text) == nil)
    }

    @Test(arguments: [
        ("350735.47 234388.90\n", 350735.47 as Double?), ("12 1", 12), ("", nil), ("-3 1", nil), ("x 1", nil),
    ])
    func readsUptimeSeconds(text: String, seconds: Double?) {
        #expect(ProcParsers.uptimeSeconds(text) == seconds)
    }

    @Test(arguments: [
        (0.0, "0m"), (59, "0m"), (60, "1m"), (3_600, "1h 0m"), (273_900, "3d 4h 5m"), (86_400, "1d 0h 0m"),
    ])
    func writesUptimeForPeople(seconds: Double, text: String) {
        #expect(ProcParsers.humanDuration(seconds) == text)
    }

    @Test func readsOsReleaseWithQuotesEscapesAndComments() {
        let text = """
            # a comment
            PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"
            NAME='Debian'
            ID=debian
            QUOTED="say \\"hi\\""
            BROKEN
            """
        let fields = ProcParsers.osRelease(text)
        #expect(fields["PRETTY_NAME"] == "Debian GNU/Linux 12 (bookworm)")
        #expect(fields["NAME"] == "Debian")
        #expect(fields["ID"] == "debian")
        #expect(fields["QUOTED"] == "say \"hi\"")
        #expect(fields["BROKEN"] == nil)
        #expect(fields.count == 4)
    }
}
