import Glibc

/// Reads a cache file straight into an array: the result file holds the whole generated source, and going through
/// `Data` would copy it once more.
enum CacheFile {
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
