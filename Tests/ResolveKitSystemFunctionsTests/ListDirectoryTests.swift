import Foundation
import Glibc
import ResolveKitCore
import Testing

@testable import ResolveKitSystemFunctions

@Suite(.timeLimit(.minutes(1)))
struct ListDirectoryTests {
    func makeTree() throws -> TemporaryTree {
        let tree = try TemporaryTree()
        try tree.file("b.log", "12345")
        try tree.file(".hidden", "")
        try tree.directory("a-dir")
        try tree.symlink("c-link", to: "/etc")
        guard mkfifo(tree.url("d-fifo"), 0o600) == 0 else { throw SystemCallError.current("mkfifo", "d-fifo") }
        var times = [timeval(tv_sec: 1_000_000_000, tv_usec: 0), timeval(tv_sec: 1_000_000_000, tv_usec: 0)]
        guard utimes(tree.url("b.log"), &times) == 0 else { throw SystemCallError.current("utimes", "b.log") }
        return tree
    }

    func list(_ tree: TemporaryTree, includeHidden: Bool = true, maxEntries: Int = 500) async throws -> DirectoryListing
    {
        let settings = SystemFunctionsConfiguration(allowedRoots: [tree.path], maxDirectoryEntries: maxEntries)
        return try await ConfiguredListDirectory(settings: settings).perform(
            path: tree.path, includeHidden: includeHidden)
    }

    @Test func listsEntriesSortedWithTypesWithoutFollowingLinks() async throws {
        let tree = try makeTree()
        let listing = try await list(tree)
        #expect(listing.path == tree.path)
        #expect(listing.entries.map(\.name) == [".hidden", "a-dir", "b.log", "c-link", "d-fifo"])
        #expect(listing.entries.map(\.type) == [.file, .directory, .file, .symlink, .fifo])
        #expect(listing.entries[2].sizeBytes == 5)
        #expect(listing.entries[2].modified == "2001-09-09T01:46:40Z")
        #expect(listing.entries[3].sizeBytes == 4)
        #expect(listing.totalEntries == 5)
        #expect(!listing.truncated)
    }

    @Test func leavesOutHiddenEntriesWhenAsked() async throws {
        let listing = try await list(try makeTree(), includeHidden: false)
        #expect(listing.entries.map(\.name) == ["a-dir", "b.log", "c-link", "d-fifo"])
    }

    @Test(arguments: [
        (1, [".hidden"]), (3, [".hidden", "a-dir", "b.log"]), (5, [".hidden", "a-dir", "b.log", "c-link", "d-fifo"]),
    ])
    func cutsLongListingsAndSaysSo(maxEntries: Int, names: [String]) async throws {
        let listing = try await list(try makeTree(), maxEntries: maxEntries)
        #expect(listing.entries.map(\.name) == names)
        #expect(listing.totalEntries == 5)
        #expect(listing.truncated == (maxEntries < 5))
    }

    @Test(arguments: [
        (Int32(S_IFREG), EntryType.file), (Int32(S_IFDIR), .directory), (Int32(S_IFLNK), .symlink),
        (Int32(S_IFSOCK), .socket), (Int32(S_IFCHR), .characterDevice), (Int32(S_IFBLK), .blockDevice),
        (Int32(S_IFIFO), .fifo),
    ])
    func namesEveryKindOfEntry(mode: Int32, type: EntryType) {
        #expect(ListDirectory.type(of: mode_t(mode) | 0o644) == type)
    }

    @Test(arguments: [
        (0, "1970-01-01T00:00:00Z"), (1_782_901_230, "2026-07-01T10:20:30Z"), (951_782_400, "2000-02-29T00:00:00Z"),
    ])
    func writesModificationTimesInUTC(seconds: Int, text: String) {
        #expect(ListDirectory.utcTimestamp(time_t(seconds)) == text)
    }
}
