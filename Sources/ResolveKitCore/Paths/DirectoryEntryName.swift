package import Glibc

/// The name of an entry `readdir` returned, read where it lies.
///
/// A record is only as long as its name: the last one of `readdir`'s buffer can end a few bytes before an unmapped
/// page. Copying `entry.pointee` or its `d_name` (a 256-byte tuple) reads past the record, and there it faults.
package enum DirectoryEntryName {
    private static let nameOffset = MemoryLayout<dirent>.offset(of: \dirent.d_name)!

    /// The entry's name, up to its terminating NUL.
    package static func of(_ entry: UnsafePointer<dirent>) -> String {
        String(cString: UnsafeRawPointer(entry).advanced(by: nameOffset).assumingMemoryBound(to: CChar.self))
    }

    /// Whether the entry is `.` or `..`, reading no byte past the name's NUL.
    package static func isDotOrDotDot(_ entry: UnsafePointer<dirent>) -> Bool {
        let name = UnsafeRawPointer(entry).advanced(by: nameOffset).assumingMemoryBound(to: UInt8.self)
        return name[0] == UInt8(ascii: ".") && (name[1] == 0 || (name[1] == UInt8(ascii: ".") && name[2] == 0))
    }
}
