import Glibc

/// An append-only file of approval decisions, one JSON line per call (see ``ApprovalAuditRecord/jsonLine``).
///
/// Each append opens the file with `O_APPEND` (created with mode 0600 if missing), writes all lines of one
/// decision in a single `write`, and closes it, so concurrent writers never interleave within a line and the file
/// can be rotated at any time. Lines hold a digest of the arguments, never their values.
public struct ApprovalAuditLog: Sendable, Hashable {
    /// The file's path.
    public var path: String

    /// Creates a log writing to `path`.
    public init(path: String) { self.path = path }

    /// Appends the records.
    /// - Throws: ``ApprovalAuditLogError`` with the `errno` when the file cannot be opened or written.
    public func append(_ records: [ApprovalAuditRecord]) throws(ApprovalAuditLogError) {
        guard !records.isEmpty else { return }
        let bytes = Array(records.map { $0.jsonLine + "\n" }.joined().utf8)
        let descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw ApprovalAuditLogError(path: path, operation: "open", errno: errno) }
        defer { close(descriptor) }
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { throw ApprovalAuditLogError(path: path, operation: "write", errno: errno) }
            offset += written
        }
    }
}

/// The audit log could not be written.
public struct ApprovalAuditLogError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file.
    public var path: String
    /// `open` or `write`.
    public var operation: String
    /// The system's error number.
    public var errno: Int32

    /// Creates an error.
    public init(path: String, operation: String, errno: Int32) {
        self.path = path
        self.operation = operation
        self.errno = errno
    }

    /// What failed and why; check that the directory exists and is writable.
    public var description: String {
        "Cannot \(operation) the approval audit log \(path): \(String(cString: strerror(errno))) (errno \(errno))"
    }
}
