import Glibc

/// Writing to a file descriptor, for the package's files and pipes (the call journal, the audit trail, MCP's output,
/// installed files, benchmark samples).
package enum FileDescriptorWrite {
    /// Writes every byte of `bytes` to `descriptor`, going on after a partial write or a signal (`EINTR`).
    /// - Returns: `nil` once everything is written, else the `errno` of the write that failed (`EIO` for one that
    ///   wrote nothing).
    package static func all(_ bytes: [UInt8], to descriptor: Int32) -> Int32? {
        bytes.withUnsafeBufferPointer { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0, errno == EINTR { continue }
                guard written > 0 else { return written < 0 ? errno : EIO }
                offset += written
            }
            return nil
        }
    }
}
