import Glibc
import ResolveKitCore

/// A failed system call: what was attempted, on which path, and the `errno` it set.
struct SystemCallError: Error, CustomStringConvertible {
    /// The call or step that failed, such as `open` or `statvfs`.
    var operation: String
    /// The path it was given.
    var path: String
    /// The `errno` value.
    var code: Int32

    /// Captures the current `errno`.
    static func current(_ operation: String, _ path: String) -> Self {
        Self(operation: operation, path: path, code: errno)
    }

    /// `strerror` text for ``code``.
    var reason: String { String(cString: strerror(code)) }

    var description: String { "\(operation) \(path): \(reason)" }
}

extension ResolveKitFunctionError {
    /// An `executionFailed` error that reports a failed system call and what to do about it.
    static func hostFailure(_ error: SystemCallError, hint: String) -> Self {
        .executionFailed("\(error). \(hint)")
    }
}
