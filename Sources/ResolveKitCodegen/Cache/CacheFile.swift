import Foundation
import Glibc

/// Reads a cache file straight into an array, and writes one from an array: the result file holds the whole
/// generated source, and going through a `Data` copy would copy it once more.
enum CacheFile {
    /// Replaces the file at `url` with `bytes` atomically (a temporary file renamed over it).
    /// - Throws: the file system's error when the file cannot be written.
    static func write(_ bytes: [UInt8], to url: URL) throws {
        try bytes.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress, !buffer.isEmpty else {
                return try Data().write(to: url, options: .atomic)
            }
            // The Data only borrows the array's storage: it is not kept, copied or changed past this closure, in
            // which the array stays alive and unchanged.
            let data = Data(
                bytesNoCopy: UnsafeMutableRawPointer(mutating: base), count: buffer.count, deallocator: .none)
            try data.write(to: url, options: .atomic)
        }
    }

    /// The file's bytes; `nil` when it is missing or cannot be read.
    static func bytes(atPath path: String) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return nil }
        let size = Int(status.st_size)
        var complete = true
        let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
            var offset = 0
            while offset < size {
                let read = Glibc.read(descriptor, buffer.baseAddress! + offset, size - offset)
                if read < 0, errno == EINTR { continue }
                guard read > 0 else { break }
                offset += read
            }
            complete = offset == size
            count = offset
        }
        return complete ? bytes : nil
    }
}
