import Foundation
import Glibc
import ResolveKitCore
import Synchronization

/// One append-only, hash-chained JSON-lines file of every approval decision and every call outcome, written by
/// the runtime whatever the approver: a policy rule, a remembered decision, a person (uid, pid, terminal), a
/// timeout, or an automatic approval.
///
/// Each line ends with `"hash"`, the SHA-256 of the line's text before it, and carries `"prev"`, the hash of
/// the line before; a changed, removed or inserted line breaks the chain there (see ``verify(path:)``). The file
/// rotates by size to `PATH.1`, `PATH.2`, … and the chain runs on across files. Lines hold digests of arguments
/// and results, never their values. One process writes one trail; a host's sessions share it.
public final class ApprovalAuditTrail: Sendable {
    /// The file's path.
    public let path: String
    /// The size past which the file rotates.
    public let maxBytes: Int
    /// How many rotated files are kept.
    public let keptFiles: Int

    private struct State {
        var lastHash: String?
        var size = 0
    }

    private let state = Mutex(State())

    /// The `prev` of the first line ever written.
    static let genesis = String(repeating: "0", count: 64)

    /// Creates a trail writing to `path`; nothing is opened until the first line. An existing trail is continued.
    /// - Parameters:
    ///   - maxBytes: rotate once the file would grow past this (10 MiB by default).
    ///   - keptFiles: rotated files kept (`PATH.1` is the newest); older ones are deleted.
    public init(path: String, maxBytes: Int = 10 << 20, keptFiles: Int = 5) {
        self.path = path
        self.maxBytes = max(4096, maxBytes)
        self.keptFiles = max(1, keptFiles)
    }

    /// Appends one line made of `fields` plus the chain's `prev` and `hash`.
    /// - Throws: ``ResolveKitError/Code/stateStore`` naming the file and the system's reason.
    func append(_ fields: JSONObject) throws(ResolveKitError) {
        try state.withLock { state throws(ResolveKitError) in
            if state.lastHash == nil {
                state.lastHash = AuditChain.lastHash(of: path) ?? AuditChain.lastHash(of: path + ".1") ?? Self.genesis
                state.size = AuditChain.size(of: path)
            }
            var object = fields
            object["prev"] = .string(state.lastHash ?? Self.genesis)
            let (line, hash) = AuditChain.line(object)
            if state.size > 0, state.size + line.count > maxBytes {
                try rotate()
                state.size = 0
            }
            try Self.write(line, to: path)
            state.size += line.count
            state.lastHash = hash
        }
    }

    private func rotate() throws(ResolveKitError) {
        unlink("\(path).\(keptFiles)")
        for index in stride(from: keptFiles - 1, through: 1, by: -1) {
            rename("\(path).\(index)", "\(path).\(index + 1)")
        }
        guard rename(path, path + ".1") == 0 else {
            throw ResolveKitError(
                .stateStore, "Cannot rotate the audit trail \(path): \(String(cString: strerror(errno)))")
        }
    }

    private static func write(_ line: [UInt8], to path: String) throws(ResolveKitError) {
        let descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw ResolveKitError(
                .stateStore, "Cannot open the audit trail \(path): \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        if let failure = FileDescriptorWrite.all(line, to: descriptor) {
            throw ResolveKitError(
                .stateStore, "Cannot write the audit trail \(path): \(String(cString: strerror(failure)))")
        }
    }
}
