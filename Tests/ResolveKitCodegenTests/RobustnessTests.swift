import Foundation
import Testing

@testable import ResolveKitCodegen

/// Half-written files (as an editor saves them) never crash or hang the generator.
struct RobustnessTests {
    static let corpus: [String] = {
        let directories = [GoldenTests.fixtures, GoldenTests.goldens.appending(path: "Edge")]
        return directories.flatMap { directory in
            ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).sorted().compactMap {
                try? String(contentsOf: directory.appending(path: $0), encoding: .utf8)
            }
        }
    }()

    @Test func theCorpusIsNotEmpty() {
        #expect(Self.corpus.count >= 6)
    }

    @Test func everyPrefixOfTheCorpusIsScannedAndModelledWithoutCrashing() {
        var runs = 0
        for source in Self.corpus {
            let bytes = Array(source.utf8)
            for length in stride(from: 0, through: bytes.count, by: 11) {
                let prefix = String(decoding: bytes[..<length], as: UTF8.self)
                _ = CodegenPipeline.run([CodegenPipeline.Input(path: "Prefix.swift", contents: prefix)])
                runs += 1
            }
        }
        #expect(runs > 500)
    }

    /// Found by the CodegenScanner fuzz target: a parameter type whose brackets do not match made the parser move
    /// past the last token and index out of range.
    @Test(arguments: ["func p(a:(]", "func p(a: [Int)", "func p(a: (Int, [String)", "func p(a: Foo<(]>"])
    func mismatchedBracketsInAParameterTypeEndTheParse(source: String) {
        let output = CodegenPipeline.run([CodegenPipeline.Input(path: "M.swift", contents: source)])
        #expect(output.functionCount == 0)
    }

    @Test func unbalancedBracketsEndTheFileInsteadOfLooping() {
        let sources = ["struct A {", "func f(", "struct B<T", "enum C: String { case a = ", "}}}", "@", "#if", "let x = ["]
        for source in sources {
            let output = CodegenPipeline.run([CodegenPipeline.Input(path: "U.swift", contents: source)])
            #expect(output.functionCount == 0)
        }
    }
}
