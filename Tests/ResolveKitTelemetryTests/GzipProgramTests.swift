import Foundation
import ResolveKitChildProcess
import ResolveKitCore
import Testing

/// The package's gzip against the `gzip` program, which every Debian and Ubuntu system has: each reads what the
/// other writes, including the dynamic Huffman and stored blocks this writer never makes.
@Suite(.timeLimit(.minutes(1)))
struct GzipProgramTests {
    static let gzip = "/bin/gzip"

    /// Bytes like an export's: repeated keys and names, with ids and numbers that differ, then random bytes.
    static let input: [UInt8] = {
        var generator = SystemRandomNumberGenerator()
        var text = ""
        for index in 0..<2_000 {
            let id = String(generator.next() as UInt64, radix: 16)
            text += "{\"name\":\"execute_tool read_log_tail\",\"spanId\":\"\(id)\",\"call\":\"call_\(index)\"}"
        }
        return Array(text.utf8) + (0..<3_000).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }()

    @Test func gzipReadsWhatThePackageWrites() async throws {
        let output = try await ProgramRunner.withTemporaryFile(named: "export.gz", Gzip.compress(Self.input)) { path in
            let run = try await ProgramRunner.run(Self.gzip, ["-d", path])
            #expect(run.termination.status == 0, "\(run.standardError)")
            return try Array(Data(contentsOf: URL(fileURLWithPath: String(path.dropLast(3)))))
        }
        #expect(output == Self.input)
    }

    @Test(arguments: ["-1", "-9"])
    func thePackageReadsWhatGzipWrites(level: String) async throws {
        let written = try await ProgramRunner.withTemporaryFile(named: "export", Self.input) { path in
            let run = try await ProgramRunner.run(Self.gzip, [level, "-n", path])
            #expect(run.termination.status == 0, "\(run.standardError)")
            return try Array(Data(contentsOf: URL(fileURLWithPath: path + ".gz")))
        }
        #expect(try Gzip.decompress(written, maxOutput: Self.input.count) == Self.input)
        // Two members one after the other read as their contents one after the other.
        let members = written + Gzip.compress(Array("two".utf8))
        #expect(try Gzip.decompress(members, maxOutput: Self.input.count + 3) == Self.input + Array("two".utf8))
    }
}
