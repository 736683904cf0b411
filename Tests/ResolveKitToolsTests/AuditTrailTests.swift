import Foundation
import Testing

@testable import ResolveKitTools

struct AuditTrailTests {
    private func temporaryPath() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("rk-audit-\(UUID().uuidString).jsonl").path
    }

    private func write(_ count: Int, to trail: ApprovalAuditTrail, from start: Int = 0) throws {
        for index in start..<(start + count) {
            try trail.append(["kind": "decision", "call_id": .string("call-\(index)"), "decision": "approved"])
        }
    }

    private func lines(_ path: String) throws -> [String] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
    }

    @Test func aWrittenTrailVerifiesAndEachLineNamesTheOneBefore() throws {
        let path = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        try write(3, to: ApprovalAuditTrail(path: path))
        let verification = ApprovalAuditTrail.verify(path: path)
        #expect(verification.isIntact)
        #expect(verification.verifiedLines == 3)
        let parsed = try lines(path).map { try JSONValue(parsing: $0) }
        #expect(verification.lastHash == parsed[2]["hash"]?.stringValue)
        #expect(verification.description == "OK: 3 lines in 1 file, the last one's hash \(verification.lastHash ?? "")")
        #expect(parsed[0]["prev"] == .string(String(repeating: "0", count: 64)))
        #expect(parsed[1]["prev"] == parsed[0]["hash"])
        #expect(parsed[2]["prev"] == parsed[1]["hash"])
        var mode = stat()
        stat(path, &mode)
        #expect(mode.st_mode & 0o777 == 0o600)
    }

    @Test(arguments: [0, 1, 2])
    func aOneByteEditIsFoundAtTheLineEdited(line: Int) throws {
        let path = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        try write(3, to: ApprovalAuditTrail(path: path))
        var text = try lines(path)
        text[line] = text[line].replacingOccurrences(of: "approved", with: "approvef")
        try (text.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        let verification = ApprovalAuditTrail.verify(path: path)
        #expect(verification.firstBreak?.line == line + 1)
        #expect(verification.firstBreak?.reason == "the line was changed: its text does not match its hash")
        #expect(verification.verifiedLines == line)
    }

    @Test func aRemovedLineIsFoundWhereTheChainBreaks() throws {
        let path = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        try write(4, to: ApprovalAuditTrail(path: path))
        var text = try lines(path)
        text.remove(at: 1)
        try (text.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        #expect(ApprovalAuditTrail.verify(path: path).firstBreak?.line == 2)
        text.remove(at: 0)
        try (text.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        #expect(ApprovalAuditTrail.verify(path: path).firstBreak?.line == 1)
    }

    @Test func aNewProcessContinuesTheChain() throws {
        let path = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        try write(2, to: ApprovalAuditTrail(path: path))
        try write(2, to: ApprovalAuditTrail(path: path), from: 2)
        #expect(ApprovalAuditTrail.verify(path: path).verifiedLines == 4)
        #expect(ApprovalAuditTrail.verify(path: path).isIntact)
    }

    @Test func rotationBySizeKeepsTheChainAcrossFilesAndDropsTheOldest() throws {
        let path = temporaryPath()
        defer {
            for suffix in ["", ".1", ".2", ".3"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        }
        let trail = ApprovalAuditTrail(path: path, maxBytes: 4096, keptFiles: 2)
        try write(100, to: trail)
        #expect(FileManager.default.fileExists(atPath: path + ".2"))
        #expect(!FileManager.default.fileExists(atPath: path + ".3"))
        for file in [path, path + ".1", path + ".2"] { #expect(AuditChain.size(of: file) <= 4096) }
        let verification = ApprovalAuditTrail.verify(path: path)
        #expect(verification.isIntact)
        #expect(verification.files == [path + ".2", path + ".1", path])
        let lastCall = try JSONValue(parsing: try lines(path).last!)["call_id"]
        #expect(lastCall == "call-99")
        // A change in a rotated file is found there.
        var older = try lines(path + ".1")
        older[0] = older[0].replacingOccurrences(of: "call-", with: "calk-")
        try (older.joined(separator: "\n") + "\n").write(toFile: path + ".1", atomically: true, encoding: .utf8)
        #expect(ApprovalAuditTrail.verify(path: path).firstBreak?.file == path + ".1")
    }

    @Test func aMissingTrailIsReported() {
        #expect(
            ApprovalAuditTrail.verify(path: "/nonexistent/audit.jsonl").firstBreak?.reason
                == "the audit trail does not exist")
    }
}
