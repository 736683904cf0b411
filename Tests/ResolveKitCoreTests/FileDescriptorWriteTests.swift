import Glibc
import ResolveKitCore
import Testing

/// Every byte reaches the descriptor, also more than a pipe holds at once, and a failed write names its errno.
@Suite struct FileDescriptorWriteTests {
    @Test func writesMoreThanAPipeHoldsAtOnceWhileTheOtherEndReads() async throws {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        let (readEnd, writeEnd) = (ends[0], ends[1])
        let bytes = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let reader = Task.detached { () -> [UInt8] in
            defer { close(readEnd) }
            var received: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = read(readEnd, &buffer, buffer.count)
                guard count > 0 else { return received }
                received += buffer[..<count]
            }
        }
        #expect(FileDescriptorWrite.all(bytes, to: writeEnd) == nil)
        close(writeEnd)
        #expect(await reader.value == bytes)
    }

    @Test func aDescriptorThatCannotBeWrittenGivesItsErrno() throws {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        close(ends[1])
        defer { close(ends[0]) }
        #expect(FileDescriptorWrite.all([1, 2, 3], to: ends[1]) == EBADF)
        #expect(FileDescriptorWrite.all([1, 2, 3], to: ends[0]) == EBADF)
    }
}
