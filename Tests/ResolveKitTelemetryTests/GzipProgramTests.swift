import Foundation
import ResolveKitChildProcess
import ResolveKitCore
import Testing

/// The package's gzip against the `gzip` program, which every Debian and Ubuntu system has: each reads what the
/// other writes, in dynamic, fixed and stored blocks.
@Suite(.timeLimit(.minutes(1)))
struct GzipProgramTests {
    static let gzip = "/bin/gzip"

    /// Bytes like an export's: repeated keys and names, with ids and numbers that differ (several dynamic blocks),
    /// then random bytes (stored blocks).
    static let input: [UInt8] = {
        var generator = SystemRandomNumberGenerator()
        var text = ""
        for index in 0..<2_000 {
            let id = String(generator.next() as UInt64, radix: 16)
            text += "{\"name\":\"execute_tool read_log_tail\",\"spanId\":\"\(id)\",\"call\":\"call_\(index)\"}"
        }
        return Array(text.utf8) + (0..<40_000).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }()

    @Test func gzipReadsWhatThePackageWrites() async throws {
        let output = try await ProgramRunner.withTemporaryFile(named: "export.gz", Gzip.compress(Self.input)) { path in
            let run = try await ProgramRunner.run(Self.gzip, ["-d", path])
            #expect(run.termination.status == 0, "\(run.standardError)")
            return try Array(Data(contentsOf: URL(fileURLWithPath: String(path.dropLast(3)))))
        }
        #expect(output == Self.input)
    }

    /// Inputs whose blocks end in every way: empty, one byte, runs longer than a match, text just past a block's
    /// 16,384 symbols, text and random bytes in turns, a skewed alphabet whose codes had to be cut to 15 bits.
    static let shapes: [[UInt8]] = {
        var generator = SystemRandomNumberGenerator()
        let text = Array(String(repeating: "turn 7 ran execute_tool get_time for 12 ms; ", count: 3_000).utf8)
        let random = (0..<30_000).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        var skewed: [UInt8] = []
        var (previous, current) = (1, 1)
        for byte in 0..<24 {
            skewed += [UInt8](repeating: UInt8(byte), count: current)
            (previous, current) = (current, previous + current)
        }
        skewed.shuffle(using: &generator)
        return [
            [], [42], [UInt8](repeating: 0, count: 100_000), Array(text.prefix(16_390)), text,
            text + random + text + random, skewed,
        ]
    }()

    @Test(arguments: shapes.indices)
    func gzipReadsEveryShapeOfBlockThePackageWrites(shape: Int) async throws {
        let input = Self.shapes[shape]
        let output = try await ProgramRunner.withTemporaryFile(named: "shape.gz", Gzip.compress(input)) { path in
            let run = try await ProgramRunner.run(Self.gzip, ["-d", path])
            #expect(run.termination.status == 0, "\(run.standardError)")
            return try Array(Data(contentsOf: URL(fileURLWithPath: String(path.dropLast(3)))))
        }
        #expect(output == input)
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
