import Foundation
import Testing

@testable import ResolveKitCore

/// A file operation's failure in the system's words, not Foundation's "The operation could not be completed".
struct FileSystemReasonTests {
    /// Foundation on Linux keeps no errno for this one: words of ours, never its "could not be completed".
    @Test func aWriteUnderAFileSaysItCannotBeWritten() throws {
        let error = try #require(throws: (any Error).self) {
            try Data("x".utf8).write(to: URL(fileURLWithPath: "/etc/hostname/cache.bin"))
        }
        #expect(FileSystemReason.of(error) == "it cannot be written there")
    }

    @Test func aFolderInTheWayOfAFolderBeingMadeIsNamedAsSuch() throws {
        let file = FileManager.default.temporaryDirectory.appending(path: "rk-reason-\(UUID().uuidString)")
        try Data().write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let error = try #require(throws: (any Error).self) {
            try FileManager.default.createDirectory(at: file, withIntermediateDirectories: true)
        }
        #expect(FileSystemReason.of(error) == "File exists")
    }
}
