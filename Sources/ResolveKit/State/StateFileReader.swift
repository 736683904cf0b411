import Foundation
import Glibc

/// Reads the state folder's files with `read(2)`.
///
/// Not `FileManager.contents(atPath:)`: swift-corelibs-foundation leaks a 4 KiB buffer each time it reads an empty
/// file (AddressSanitizer found it), and an empty journal is a normal state, for instance after a compaction that
/// kept nothing.
enum StateFileReader {
    /// The file's bytes; `nil` when it does not exist or cannot be read.
    static func contents(atPath path: String) -> Data? {
        var data = Data()
        let complete = forEachChunk(ofFileAt: path) { data.append(contentsOf: $0) }
        return complete ? data : nil
    }

    /// Calls `body` with each chunk of the file in order; `false` when it could not be opened or a read failed.
    private static func forEachChunk(ofFileAt path: String, _ body: (UnsafeRawBufferPointer) -> Void) -> Bool {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 65_536, alignment: 1)
        defer { chunk.deallocate() }
        while true {
            let count = read(descriptor, chunk.baseAddress, chunk.count)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return count == 0 }
            body(UnsafeRawBufferPointer(rebasing: chunk[..<count]))
        }
    }
}
