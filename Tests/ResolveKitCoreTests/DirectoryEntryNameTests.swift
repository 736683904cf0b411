import Glibc
import Testing

@testable import ResolveKitCore

/// `readdir` packs records as short as their names: the last one of its buffer can end just before an unmapped
/// page. Reading a name must not read past its NUL (copying `d_name`, a 256-byte tuple, crashed the process metrics
/// of a test run at a page boundary).
struct DirectoryEntryNameTests {
    /// Runs `body` with a record named `name` that ends exactly where an inaccessible page begins.
    private func withRecordAtAPageEnd<Result>(
        named name: String, _ body: (UnsafePointer<dirent>) -> Result
    ) -> Result {
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let memory = mmap(nil, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)!
        defer { munmap(memory, 2 * page) }
        mprotect(memory + page, page, PROT_NONE)
        let nameOffset = MemoryLayout<dirent>.offset(of: \dirent.d_name)!
        let length = (nameOffset + name.utf8.count + 1 + 7) & ~7
        let record = memory + page - length
        let bytes = Array(name.utf8) + [0]
        bytes.withUnsafeBytes { (record + nameOffset).copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
        return body(record.assumingMemoryBound(to: dirent.self))
    }

    @Test(arguments: [".", "..", "fd", "Sources"])
    func aNameIsReadWhereItLies(name: String) {
        #expect(withRecordAtAPageEnd(named: name) { DirectoryEntryName.of($0) } == name)
        let isDot = withRecordAtAPageEnd(named: name) { DirectoryEntryName.isDotOrDotDot($0) }
        #expect(isDot == (name == "." || name == ".."))
    }

    @Test func aRealDirectorysEntriesAreNamed() throws {
        let directory = try #require(opendir("/proc/self"))
        defer { closedir(directory) }
        var names: Set<String> = []
        while let entry = readdir(directory) { names.insert(DirectoryEntryName.of(entry)) }
        #expect(names.isSuperset(of: [".", "..", "fd", "stat", "task"]))
    }
}
