import Foundation
import Glibc

/// Why a file operation of Foundation's failed, in the system's words (`Permission denied`, `No space left on
/// device`) rather than its "The operation could not be completed", for messages that name the file themselves.
package enum FileSystemReason {
    /// The reason behind `error`.
    package static func of(_ error: any Error) -> String {
        let failure = error as NSError
        if failure.domain == NSPOSIXErrorDomain { return words(errno: failure.code) }
        if let underlying = failure.userInfo[NSUnderlyingErrorKey] as? NSError,
            underlying.domain == NSPOSIXErrorDomain
        {
            return words(errno: underlying.code)
        }
        switch CocoaError.Code(rawValue: failure.code) {
        case .fileWriteNoPermission, .fileReadNoPermission: return words(errno: Int(EACCES))
        case .fileWriteOutOfSpace: return words(errno: Int(ENOSPC))
        case .fileWriteFileExists: return words(errno: Int(EEXIST))
        case .fileNoSuchFile, .fileReadNoSuchFile: return words(errno: Int(ENOENT))
        case .fileWriteVolumeReadOnly: return words(errno: Int(EROFS))
        // Foundation on Linux often keeps no errno behind these.
        case .fileWriteUnknown: return "it cannot be written there"
        case .fileReadUnknown: return "it cannot be read"
        default: return "error \(failure.code) of \(failure.domain)"
        }
    }

    private static func words(errno code: Int) -> String {
        String(cString: strerror(Int32(code)))
    }
}
