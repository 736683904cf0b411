import Foundation
import ResolveKitCore
import Testing

@testable import ResolveKitSystemFunctions

@Suite(.timeLimit(.minutes(1)))
struct ReadLogTailTests {
    /// `line-01\n` … `line-10\n`: ten lines of eight bytes each.
    static let tenLines = (1...10).map { "line-" + ($0 < 10 ? "0\($0)" : "\($0)") + "\n" }.joined()

    func tail(_ text: String, lines: Int = 50, maxBytes: Int = 256 * 1024) async throws -> LogTail {
        let tree = try TemporaryTree()
        try tree.file("app.log", text)
        let settings = SystemFunctionsConfiguration(allowedRoots: [tree.path], maxLogBytes: maxBytes)
        return try await ConfiguredReadLogTail(settings: settings).perform(path: tree.url("app.log"), lines: lines)
    }

    @Test func returnsTheLastLinesOldestFirst() async throws {
        let tail = try await tail(Self.tenLines, lines: 3)
        #expect(tail.lines == ["line-08", "line-09", "line-10"])
        #expect(tail.truncated)
        #expect(!tail.reachedByteLimit)
        #expect(tail.fileSizeBytes == 80)
    }

    @Test func returnsTheWholeFileWhenItIsShort() async throws {
        let tail = try await tail("a\nb\n", lines: 10)
        #expect(tail.lines == ["a", "b"])
        #expect(!tail.truncated)
    }

    @Test(arguments: [
        // A window starting mid-line drops the partial line.
        (20, ["line-09", "line-10"], 20),
        // A window starting exactly at a line start keeps it.
        (16, ["line-09", "line-10"], 16),
        (24, ["line-08", "line-09", "line-10"], 24),
        (1, [], 1),
    ])
    func neverReadsMoreThanTheByteLimitFromTheEnd(maxBytes: Int, lines: [String], bytesRead: Int) async throws {
        let tail = try await tail(Self.tenLines, lines: 5, maxBytes: maxBytes)
        #expect(tail.lines == lines)
        #expect(tail.bytesRead == bytesRead)
        #expect(tail.truncated)
        #expect(tail.reachedByteLimit)
    }

    @Test func keepsThePartOfALineLongerThanTheByteLimit() async throws {
        let tail = try await tail(String(repeating: "x", count: 100) + "\n", maxBytes: 10)
        #expect(tail.lines == ["xxxxxxxxx"])
        #expect(tail.truncated)
    }

    @Test(arguments: [
        ("a\r\nb\r\n", ["a", "b"]), ("no newline at end", ["no newline at end"]), ("", []), ("\n\n", ["", ""]),
        ("bad \u{FFFD}", ["bad \u{FFFD}"]),
    ])
    func splitsLinesAndStripsTerminators(text: String, lines: [String]) async throws {
        #expect(try await tail(text).lines == lines)
    }

    @Test func replacesBytesThatAreNotUTF8() {
        let split = TailReader.lines(in: [0x61, 0xFF, 0x0A, 0x62], beginsAtLineStart: true)
        #expect(split.lines == ["a\u{FFFD}", "b"])
    }

    @Test(arguments: [0, -1, 1001])
    func refusesALineCountOutsideTheLimit(lines: Int) async {
        await expectFunctionError(.invalidArguments, mentioning: "between 1 and 1000") {
            try await tail("a\n", lines: lines)
        }
    }

    @Test func honoursALowerConfiguredLineLimit() async throws {
        let tree = try TemporaryTree()
        try tree.file("app.log", Self.tenLines)
        let settings = SystemFunctionsConfiguration(allowedRoots: [tree.path], maxLogLines: 4)
        let reader = ConfiguredReadLogTail(settings: settings)
        #expect(try await reader.perform(path: tree.url("app.log"), lines: 4).lines.count == 4)
        await expectFunctionError(.invalidArguments, mentioning: "between 1 and 4") {
            try await reader.perform(path: tree.url("app.log"), lines: 5)
        }
    }
}
