import Foundation

extension ApprovalAuditTrail {
    /// What checking a trail's chain found.
    public struct Verification: Sendable, Hashable, CustomStringConvertible {
        /// Where the chain breaks first.
        public struct Break: Sendable, Hashable {
            /// The file.
            public var file: String
            /// The line, from 1.
            public var line: Int
            /// What is wrong with it.
            public var reason: String
        }

        /// The files checked, oldest first.
        public var files: [String]
        /// The lines that verified before the first break (all of them when intact).
        public var verifiedLines: Int
        /// The first broken line, if any.
        public var firstBreak: Break?
        /// The hash of the last line that verified: lines cut from the end leave a shorter chain that is still
        /// whole, so compare this with a copy kept elsewhere (a log shipped off the host) to find them.
        public var lastHash: String?

        /// Whether every line verified.
        public var isIntact: Bool { firstBreak == nil }

        /// `OK: 1204 lines in 2 files, the last one's hash 3f2a…` or `path:17: line 17 was changed …`.
        public var description: String {
            if let firstBreak { return "\(firstBreak.file):\(firstBreak.line): \(firstBreak.reason)" }
            let counted = "OK: \(verifiedLines) lines in \(files.count) file\(files.count == 1 ? "" : "s")"
            return counted + (lastHash.map { ", the last one's hash \($0)" } ?? "")
        }
    }

    /// Checks the chain of the trail at `path` and its rotated files (`PATH.N` … `PATH.1`, then `PATH`).
    ///
    /// A line whose text does not match its hash was changed; a line whose `prev` is not the hash of the line
    /// before means a line was removed or inserted there. A trail that never rotated must start at the chain's
    /// beginning, so removing its first lines is found too.
    public static func verify(path: String) -> Verification {
        var files: [String] = []
        var index = 1
        while FileManager.default.fileExists(atPath: "\(path).\(index)") {
            files.insert("\(path).\(index)", at: 0)
            index += 1
        }
        if FileManager.default.fileExists(atPath: path) { files.append(path) }
        var result = Verification(files: files, verifiedLines: 0)
        guard !files.isEmpty else {
            result.firstBreak = .init(file: path, line: 0, reason: "the audit trail does not exist")
            return result
        }
        var expected: String? = files[0] == path ? genesis : nil
        for file in files {
            guard let data = FileManager.default.contents(atPath: file) else {
                result.firstBreak = .init(file: file, line: 0, reason: "the file cannot be read")
                return result
            }
            let lines = [UInt8](data).split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
            for (offset, line) in lines.enumerated() {
                if line.isEmpty, offset == lines.count - 1 { break }
                if let reason = check(line, expectedPrev: expected, next: &expected) {
                    result.firstBreak = .init(file: file, line: offset + 1, reason: reason)
                    return result
                }
                result.verifiedLines += 1
                result.lastHash = expected
            }
        }
        return result
    }

    /// Why `line` breaks the chain, or `nil` when it continues it (and `next` becomes its hash).
    private static func check(_ line: ArraySlice<UInt8>, expectedPrev: String?, next: inout String?) -> String? {
        guard let (body, claimed) = AuditChain.split(line) else {
            return "not an audit line: it was changed or cut short"
        }
        guard SHA256.hex(SHA256.digest(body)) == claimed else {
            return "the line was changed: its text does not match its hash"
        }
        guard let prev = (try? JSONValue(parsing: body))?.objectValue?["prev"]?.stringValue else {
            return "the line was changed: it has no prev"
        }
        if let expectedPrev, prev != expectedPrev {
            return "the chain breaks before this line: a line was removed, inserted or changed above it"
        }
        next = claimed
        return nil
    }
}
