import Foundation
@testable import ResolveKit
import Testing

struct StateFileReaderTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rk-reader-\(UUID().uuidString)").path

    init() throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    @Test func anEmptyFileIsEmptyDataAndAMissingOneIsNil() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try Data().write(to: URL(fileURLWithPath: directory + "/empty"))
        #expect(StateFileReader.contents(atPath: directory + "/empty") == Data())
        #expect(StateFileReader.contents(atPath: directory + "/missing") == nil)
    }

    @Test func aFileLongerThanOneChunkIsReadWhole() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // 10,000 lines of 13 bytes: 130,000 bytes, so lines straddle the 64 KiB chunk boundaries.
        let text = (0..<10_000).map { String(format: "line %07d\n", $0) }.joined()
        try Data(text.utf8).write(to: URL(fileURLWithPath: directory + "/journal.jsonl"))
        #expect(StateFileReader.contents(atPath: directory + "/journal.jsonl") == Data(text.utf8))
    }
}
